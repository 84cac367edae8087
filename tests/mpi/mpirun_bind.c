/* Every rank prints the CPUs it may run on, as sched_getaffinity gives them when the program starts (what
 * mpirun's binding left), one line "rank R cpus C1,C2,...": tests/mpi/mpirun_bind.test compares them. */
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>

/* This process's CPU set, in a set big enough for the kernel's CPU count. */
static cpu_set_t *my_cpus(size_t *size)
{
    for (int n = 1024; n <= (1 << 22); n *= 2) {
        cpu_set_t *set = CPU_ALLOC(n);
        if (!set)
            return NULL;
        *size = CPU_ALLOC_SIZE(n);
        if (sched_getaffinity(0, *size, set) == 0)
            return set;
        CPU_FREE(set);
        if (errno != EINVAL)
            return NULL;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    /* Read before MPI_Init, so nothing the library does can change what mpirun set. */
    size_t size = 0;
    cpu_set_t *set = my_cpus(&size);
    if (!set) {
        perror("sched_getaffinity");
        return 1;
    }
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d cpus ", rank);
    const char *sep = "";
    for (int cpu = 0; cpu < (int)(8 * size); cpu++) {
        if (CPU_ISSET_S(cpu, size, set)) {
            printf("%s%d", sep, cpu);
            sep = ",";
        }
    }
    printf("\n");
    CPU_FREE(set);
    MPI_Finalize();
    return 0;
}
