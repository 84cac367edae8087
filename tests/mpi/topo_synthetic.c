/* A synthetic topology (AXON_TOPO): the ranks of this machine act as several nodes. Each rank learns
 * from argv how many ranks a node holds (as the test's AXON_TOPO says) and checks what the job makes
 * of it: MPI_COMM_TYPE_SHARED groups exactly its node's ranks, in order; messages between ranks of
 * different nodes and of one node arrive whole; collectives on the world (across nodes) and on a node
 * (through its shared memory) give the right results. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void check(int ok, const char *what)
{
    if (ok)
        return;
    printf("rank %d FAILED: %s\n", rank, what);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int per_node = argc > 1 ? atoi(argv[1]) : 0;
    check(per_node > 0, "usage: topo_synthetic RANKS_PER_NODE");

    /* The node: ranks node*per_node .. on, the last node maybe partly filled. */
    int node = rank / per_node, first = node * per_node;
    int members = size - first < per_node ? size - first : per_node;
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    int srank, ssize;
    MPI_Comm_rank(shared, &srank);
    MPI_Comm_size(shared, &ssize);
    check(ssize == members, "MPI_COMM_TYPE_SHARED does not hold the synthetic node's ranks");
    check(srank == rank - first, "MPI_COMM_TYPE_SHARED orders the node's ranks differently");

    /* Collectives within the node (shared memory) and across the nodes, small and large. */
    for (int count = 1; count <= (1 << 18); count *= 64) {
        int *in = malloc(sizeof(int) * (size_t)count), *out = malloc(sizeof(int) * (size_t)count);
        check(in && out, "out of memory");
        for (int i = 0; i < count; i++)
            in[i] = rank + i;
        MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, shared);
        for (int i = 0; i < count; i++)
            check(out[i] == (first + first + members - 1) * members / 2 + members * i, "allreduce on the node");
        MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < count; i++)
            check(out[i] == (size - 1) * size / 2 + size * i, "allreduce on the world");
        free(in);
        free(out);
    }

    /* A ring of messages over all ranks: every other hop crosses nodes. */
    for (int bytes = 1; bytes <= (1 << 20); bytes *= 32) {
        unsigned char *s = malloc((size_t)bytes), *r = malloc((size_t)bytes);
        check(s && r, "out of memory");
        for (int i = 0; i < bytes; i++)
            s[i] = (unsigned char)(rank * 7 + i);
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        MPI_Sendrecv(s, bytes, MPI_BYTE, to, 3, r, bytes, MPI_BYTE, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < bytes; i++)
            check(r[i] == (unsigned char)(from * 7 + i), "a message along the ring differs");
        free(s);
        free(r);
    }
    MPI_Comm_free(&shared);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("topo_synthetic: %d ranks, %d a node, ok\n", size, per_node);
    MPI_Finalize();
    return 0;
}
