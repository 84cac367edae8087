/* Which point-to-point messages UCX sends eagerly: the pure decision behind axon_ucx.eager_limit, made
 * once at MPI_Init from AXON_EAGER_LIMIT and from whether this machine has an RDMA device.
 *
 * Rendezvous saves the receiver a copy only where UCX can move the payload zero-copy, on an RDMA
 * transport. Over TCP it moves the same bytes through the same socket after a round trip that eager
 * does not pay (request to send, clear to send), so UCX's own threshold for TCP, which it sets as for
 * RDMA, leaves messages of a few tens of KiB waiting a round trip for nothing. Without an RDMA device
 * every message between nodes goes over TCP, and messages up to AXON_UCX_TCP_EAGER_MAX go eagerly:
 * there the round trip is still a tenth or more of the transfer on a 1-10 Gbit/s link; beyond it the
 * receiver-driven protocol keeps unexpected messages from filling the receiver's memory. With an RDMA
 * device UCX's threshold decides, as it knows the transport's costs. AXON_EAGER_LIMIT set by the user
 * decides in every case. */
#include "ucx_glue/ucx_glue.h"

#include <dirent.h>
#include <string.h>

bool axon_ucx_fabric_has_rdma(const char *class_dir)
{
    DIR *d = opendir(class_dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL)
        found = e->d_name[0] != '.';
    closedir(d);
    return found;
}

long axon_ucx_eager_limit_decide(long configured, bool rdma)
{
    if (configured >= 0)
        return configured;
    return rdma ? -1 : AXON_UCX_TCP_EAGER_MAX;
}
