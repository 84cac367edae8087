/* MPI_Init_thread gives the level asked for (up to MPI_THREAD_MULTIPLE); MPI_Query_thread agrees and
 * MPI_Is_thread_main tells the main thread from another. argv[1] names the level. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *other(void *arg)
{
    MPI_Is_thread_main((int *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int required = MPI_THREAD_MULTIPLE, provided = -1, queried = -1, main_flag = -1, other_flag = -1, rank;
    if (argc > 1 && strcmp(argv[1], "single") == 0)
        required = MPI_THREAD_SINGLE;
    if (argc > 1 && strcmp(argv[1], "funneled") == 0)
        required = MPI_THREAD_FUNNELED;
    if (argc > 1 && strcmp(argv[1], "serialized") == 0)
        required = MPI_THREAD_SERIALIZED;
    MPI_Init_thread(&argc, &argv, required, &provided);
    MPI_Query_thread(&queried);
    MPI_Is_thread_main(&main_flag);
    pthread_t t;
    pthread_create(&t, NULL, other, &other_flag);
    pthread_join(t, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int ok = provided == required && queried == provided && main_flag == 1 && other_flag == 0;
    printf("rank %d: %s (provided %d)\n", rank, ok ? "ok" : "FAILED", provided);
    MPI_Finalize();
    return !ok;
}
