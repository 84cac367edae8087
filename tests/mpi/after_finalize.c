/* After MPI_Finalize, MPI_Finalized and MPI_Initialized answer, and the info calls work on objects made
 * before it and new ones (MPI 4.0); MPI_Comm_size ends the process. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int init = -1, fin = -1, size;
    MPI_Init(&argc, &argv);
    MPI_Finalized(&fin);
    printf("before: finalized=%d\n", fin);
    MPI_Info kept;
    MPI_Info_create(&kept);
    MPI_Info_set(kept, "k", "v1");
    MPI_Finalize();
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    printf("after: initialized=%d finalized=%d\n", init, fin);

    MPI_Info fresh;
    char value[16] = "";
    int vlen = sizeof(value), found = 0, nkeys = -1;
    int ok = MPI_Info_set(kept, "k", "v2") == MPI_SUCCESS &&
             MPI_Info_get_string(kept, "k", &vlen, value, &found) == MPI_SUCCESS && found &&
             strcmp(value, "v2") == 0 && MPI_Info_create(&fresh) == MPI_SUCCESS &&
             MPI_Info_get_nkeys(fresh, &nkeys) == MPI_SUCCESS && nkeys == 0 && MPI_Info_free(&fresh) == MPI_SUCCESS &&
             MPI_Info_free(&kept) == MPI_SUCCESS && kept == MPI_INFO_NULL;
    printf("info after MPI_Finalize: %s\n", ok ? "ok" : "FAILED");
    fflush(stdout);
    if (argc > 1)
        MPI_Comm_size(MPI_COMM_WORLD, &size); /* erroneous: the process ends here */
    return 0;
}
