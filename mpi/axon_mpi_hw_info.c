/* MPI_Get_hw_resource_info (MPI 4.1): an info object of what the calling process runs on, which the
 * standard leaves to the implementation (Open MPI's is empty). Axon's keys, read when the call is made:
 *   axon_host   the host's name
 *   axon_cpus   the CPUs the process may run on (its affinity), as ranges: "0-3,8"
 *   axon_ncpus  how many those are
 * The program frees the object with MPI_Info_free. */
#include "mpi/axon_mpi.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The CPUs of set as ranges ("0-3,8"), cut short (ending in "...") when out has no room. */
static void axon_hw_cpus(const cpu_set_t *set, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        int n = last > c ? snprintf(out + used, size - used, "%s%d-%d", used ? "," : "", c, last)
                         : snprintf(out + used, size - used, "%s%d", used ? "," : "", c);
        if (n < 0 || (size_t)n >= size - used) {
            snprintf(out + (size > 4 ? size - 4 : 0), size > 4 ? 4 : size, "...");
            return;
        }
        used += (size_t)n;
        c = last;
    }
}

AXON_MPI_WEAK(Get_hw_resource_info)
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    static const char func[] = "MPI_Get_hw_resource_info";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!hw_info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "hw_info is a NULL pointer");
    *hw_info = MPI_INFO_NULL;
    char host[256] = "", cpus[MPI_MAX_INFO_VAL], ncpus[16] = "0";
    if (gethostname(host, sizeof(host) - 1) != 0)
        snprintf(host, sizeof(host), "unknown");
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        axon_hw_cpus(&set, cpus, sizeof(cpus));
        snprintf(ncpus, sizeof(ncpus), "%d", CPU_COUNT(&set));
    } else {
        snprintf(cpus, sizeof(cpus), "unknown");
    }
    MPI_Info info;
    int rc = PMPI_Info_create(&info);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(info, "axon_host", host);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(info, "axon_cpus", cpus);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(info, "axon_ncpus", ncpus);
    if (rc != MPI_SUCCESS) {
        if (info != MPI_INFO_NULL)
            PMPI_Info_free(&info);
        return axon_mpi_error(NULL, func, rc, "cannot make the info object");
    }
    *hw_info = info;
    return MPI_SUCCESS;
}
