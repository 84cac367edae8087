/* The neighborhood exchange (MPI_Neighbor_allgather ... MPI_Neighbor_alltoallw, on Cartesian and
 * distributed-graph topologies): one round in which every block to send goes to its rank and every
 * receive block comes from its rank. The MPI layer gives both lists in posting order, because that order
 * is what pairs the messages between two ranks: the k-th send from p to q matches the k-th receive from
 * p at q (a schedule has a single tag). Messages to the caller itself never touch the transport: the
 * k-th send to self is copied into the k-th receive from self. */
#include "coll/coll.h"

void axon_coll_neighbor(struct axon_coll_sched *s, int nsend, const struct axon_coll_block *send, const int *to,
                        int nrecv, const struct axon_coll_block *recv, const int *from)
{
    int me = axon_coll_sched_rank(s);
    /* Self edges: walk both lists in order, pairing as the transport would. */
    int j = 0;
    for (int k = 0; k < nsend; k++) {
        if (to[k] != me)
            continue;
        while (j < nrecv && from[j] != me)
            j++;
        if (j == nrecv)
            break;
        axon_coll_sched_copy(s, send[k].buf, send[k].count, &send[k].dt, recv[j].buf, recv[j].count, &recv[j].dt);
        j++;
    }
    /* Receives first, so that messages find their buffer rather than the unexpected queue. */
    for (int k = 0; k < nrecv; k++)
        if (from[k] != me)
            axon_coll_sched_recv(s, recv[k].buf, recv[k].count, &recv[k].dt, from[k]);
    for (int k = 0; k < nsend; k++)
        if (to[k] != me)
            axon_coll_sched_send(s, send[k].buf, send[k].count, &send[k].dt, to[k]);
}
