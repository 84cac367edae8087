/* Names of the library's shared-memory segments, and their creation: "/axon-<kind>-<pid>-<random>-<serial>".
 * The pid lets mpirun remove whatever a rank it reaps left behind (axon_runtime_shm_sweep); the 64 random
 * bits keep another local user from guessing a name before it is made (a name taken makes the segment
 * fail, or a job read another's memory); the serial tells one process's segments apart. */
#include "runtime/runtime.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static unsigned long long axon_shm_random(void)
{
    unsigned long long r = 0;
    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
        /* No entropy yet (early boot): the clock's nanoseconds and our addresses, still not a guess
         * away. */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        r = ((unsigned long long)ts.tv_nsec << 32) ^ (unsigned long long)ts.tv_sec ^ (unsigned long long)(uintptr_t)&r;
    }
    return r;
}

int axon_runtime_shm_create(const char *kind, unsigned serial, char *name, size_t len)
{
    /* A fresh random part for each try: a name that exists is someone else's, never ours to remove. */
    for (int tries = 0; tries < 8; tries++) {
        snprintf(name, len, "/axon-%s-%ld-%016llx-%u", kind, (long)getpid(), axon_shm_random(), serial);
        int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

int axon_runtime_shm_sweep(long pid)
{
    DIR *d = opendir("/dev/shm");
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char kind[32];
        long owner;
        int at = 0;
        if (sscanf(e->d_name, "axon-%31[a-z0-9]-%ld-%n", kind, &owner, &at) != 2 || at == 0 || owner != pid)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        char path[300];
        snprintf(path, sizeof(path), "/%s", e->d_name);
        removed += shm_unlink(path) == 0;
    }
    closedir(d);
    return removed;
}
