/* Calls that are legal before MPI_Init answer (the version queries and, as MPI 4.0 allows, the info
 * calls, whose objects live on through MPI_Init); one that is not ends the process with a message. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int flag = -1, version, subversion, len, rank;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Initialized(&flag);
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(lib, &len);
    printf("initialized=%d version=%d.%d\n", flag, version, subversion);

    MPI_Info info, copy;
    int nkeys = -1, found = 0, vlen = 0;
    char value[16] = "";
    int ok = MPI_Info_create(&info) == MPI_SUCCESS && MPI_Info_set(info, "host", "a") == MPI_SUCCESS &&
             MPI_Info_dup(info, &copy) == MPI_SUCCESS && MPI_Info_delete(info, "host") == MPI_SUCCESS &&
             MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys == 0;
    printf("info before MPI_Init: %s\n", ok ? "ok" : "FAILED");
    if (argc > 1)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* erroneous: the process ends here */
    fflush(stdout);
    MPI_Init(&argc, &argv);
    /* Made before MPI_Init, the copy still holds its key. */
    vlen = sizeof(value);
    ok = MPI_Info_get_string(copy, "host", &vlen, value, &found) == MPI_SUCCESS && found && strcmp(value, "a") == 0;
    printf("info after MPI_Init: %s\n", ok ? "ok" : "FAILED");
    MPI_Info_free(&info);
    MPI_Info_free(&copy);
    MPI_Finalize();
    return 0;
}
