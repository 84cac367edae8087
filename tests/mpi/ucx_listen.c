/* Where the job's ranks listen for connections: each rank finds its own listening TCP sockets (its file
 * descriptors' socket inodes among /proc/net/tcp's and tcp6's LISTEN entries) and reports any bound to
 * an address other than the loopback. A job on one machine must listen on the loopback only (UCX's
 * TCP transport opened a port on every interface); with "any" as the argument, rank 0 only prints how
 * many of the worst rank's listeners are not on the loopback, for the .test to check that
 * UCX_NET_DEVICES set by the user still decides. */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank;

/* Whether socket inode `ino` is one of this process's descriptors. */
static int mine(unsigned long ino)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        char path[300], target[64];
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof(target) - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        unsigned long v;
        found = sscanf(target, "socket:[%lu]", &v) == 1 && v == ino;
    }
    closedir(d);
    return found;
}

/* Whether a /proc/net address (hex, as the kernel prints it) is a loopback one. */
static int loopback(const char *hex, int v6)
{
    if (!v6)
        return strlen(hex) == 8 && strcmp(hex + 6, "7F") == 0; /* 127.x.y.z, little-endian */
    return strcmp(hex, "00000000000000000000000001000000") == 0 ||      /* ::1 */
           (strncmp(hex, "0000000000000000FFFF0000", 24) == 0 && strcmp(hex + 30, "7F") == 0); /* ::ffff:127/8 */
}

/* This process's listening sockets in one table: how many are not on the loopback. */
static void scan(const char *table, int v6, int *outside)
{
    FILE *f = fopen(table, "r");
    if (!f)
        return;
    char line[512];
    if (!fgets(line, sizeof(line), f)) { /* the header */
        fclose(f);
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        char local[64], remote[64];
        unsigned st;
        unsigned long ino;
        int slot;
        /* sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode */
        if (sscanf(line, " %d: %63[0-9A-Fa-f:] %63[0-9A-Fa-f:] %x %*s %*s %*s %*u %*u %lu", &slot, local, remote, &st,
                   &ino) != 5)
            continue;
        if (st != 0x0A || !mine(ino))
            continue;
        char *colon = strrchr(local, ':');
        if (colon)
            *colon = '\0';
        if (!loopback(local, v6)) {
            (*outside)++;
            fprintf(stderr, "rank %d listens on %s (%s)\n", rank, local, v6 ? "tcp6" : "tcp");
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int any = argc > 1 && strcmp(argv[1], "any") == 0;
    /* Every rank has made its endpoints to the others once this has run. */
    MPI_Barrier(MPI_COMM_WORLD);
    int outside = 0;
    scan("/proc/net/tcp", 0, &outside);
    scan("/proc/net/tcp6", 1, &outside);
    int worst = 0;
    MPI_Allreduce(&outside, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        if (any)
            printf("ucx_listen: %d listener(s) off the loopback\n", worst);
        else if (worst == 0)
            printf("ucx_listen: ok\n");
    }
    MPI_Finalize();
    return !any && worst ? 1 : 0;
}
