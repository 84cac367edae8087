/* A soak of random point-to-point traffic that checks every byte: MESSAGES messages (200,000 by
 * default; argv[1] overrides) with random sources, destinations, tags and sizes (mostly small, some
 * past the rendezvous threshold, a few of 1 MiB), received with every kind of receive: exact, by
 * MPI_ANY_SOURCE, by MPI_ANY_TAG, and by both wildcards.
 *
 * Every rank draws the same schedule from one seed, so each knows what it sends and what it must
 * receive. The schedule runs in chunks; within a chunk each receiver picks one way to receive for each
 * source, chosen so that any match the standard allows is a correct one: exact receives name a unique
 * tag, MPI_ANY_SOURCE receives name a tag unique in the chunk, MPI_ANY_TAG receives cover every message of
 * their source in the chunk (so non-overtaking fixes which message each one gets, and the test checks
 * that order), and a double-wildcard chunk covers every message to the receiver (the test checks the
 * order per source). Chunks are separated by a barrier on a duplicate communicator, so no wildcard can
 * take a message of the next chunk. Each payload carries its sender, its number and a pattern. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 2000
#define MAXBIG (1 << 20)

struct msg {
    int src, dst, tag, size;
    int seq;        /* position in the whole schedule */
};

static int rank, size;
static MPI_Comm ctrl;

static uint64_t rng_state;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static int draw_size(void)
{
    uint32_t r = rng() % 1000;
    if (r < 2)
        return MAXBIG;                     /* 0.2%: 1 MiB */
    if (r < 50)
        return 8192 + (int)(rng() % 60000); /* 5%: past the eager limit */
    if (r < 100)
        return 0;
    return 16 + (int)(rng() % 500);
}

/* The payload: seq as the first int when it fits, then bytes that depend on seq and position. */
static void fill(unsigned char *p, const struct msg *m)
{
    for (int i = 0; i < m->size; i++)
        p[i] = (unsigned char)(m->seq * 31 + i * 7);
    if (m->size >= (int)sizeof(int))
        memcpy(p, &m->seq, sizeof(int));
}

static int verify(const unsigned char *p, int bytes, const struct msg *m)
{
    if (bytes != m->size)
        return 0;
    for (int i = 0; i < m->size; i++) {
        unsigned char want = (unsigned char)(m->seq * 31 + i * 7);
        if (i < (int)sizeof(int) && m->size >= (int)sizeof(int))
            want = ((const unsigned char *)&m->seq)[i];
        if (p[i] != want)
            return 0;
    }
    return 1;
}

static void barrier(void)
{
    /* Everyone tells rank 0, rank 0 tells everyone (collectives are tested on their own). */
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, 1, ctrl, MPI_STATUS_IGNORE);
        for (int r = 1; r < size; r++)
            MPI_Send(NULL, 0, MPI_BYTE, r, 2, ctrl);
    } else {
        MPI_Send(NULL, 0, MPI_BYTE, 0, 1, ctrl);
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 2, ctrl, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &ctrl);
    long total = argc > 1 ? atol(argv[1]) : 200000;
    rng_state = 12345;

    struct msg *chunk = malloc(sizeof(*chunk) * CHUNK);
    unsigned char **sbufs = malloc(sizeof(*sbufs) * CHUNK), **rbufs = malloc(sizeof(*rbufs) * CHUNK);
    MPI_Request *reqs = malloc(sizeof(*reqs) * 2 * CHUNK);
    MPI_Status *sts = malloc(sizeof(*sts) * 2 * CHUNK);
    int *expect_idx = malloc(sizeof(int) * CHUNK); /* for each posted receive: the message it must get, or -1 */
    int *mode = malloc(sizeof(int) * (size_t)size);
    int *next_from = malloc(sizeof(int) * (size_t)size);
    long failures = 0, received = 0;

    for (long base = 0; base < total; base += CHUNK) {
        int n = (int)(total - base < CHUNK ? total - base : CHUNK);
        for (int i = 0; i < n; i++) {
            chunk[i].src = (int)(rng() % (uint32_t)size);
            chunk[i].dst = (int)(rng() % (uint32_t)size);
            chunk[i].tag = i;              /* unique in the chunk */
            chunk[i].size = draw_size();
            chunk[i].seq = (int)(base + i);
        }
        /* How this receiver takes each source's messages in this chunk: 0 exact, 1 MPI_ANY_SOURCE with
         * the unique tag, 2 MPI_ANY_TAG for the source; or, for the whole chunk, 3 both wildcards. */
        int whole = (int)(rng() % 8) == 0;
        for (int s = 0; s < size; s++)
            mode[s] = whole ? 3 : (int)(rng() % 3);
        /* A wildcard receive may get any message its wildcard covers: it needs room for the largest. */
        int largest_to_me = 0;
        for (int s = 0; s < size; s++)
            next_from[s] = 0; /* here: the largest message from s to this rank */
        for (int i = 0; i < n; i++) {
            if (chunk[i].dst != rank)
                continue;
            if (chunk[i].size > next_from[chunk[i].src])
                next_from[chunk[i].src] = chunk[i].size;
            if (chunk[i].size > largest_to_me)
                largest_to_me = chunk[i].size;
        }

        int nreq = 0, nrecv = 0;
        for (int i = 0; i < n; i++) {
            if (chunk[i].dst != rank)
                continue;
            int src = chunk[i].src, tag = chunk[i].tag;
            switch (mode[src]) {
            case 1: src = MPI_ANY_SOURCE; break;
            case 2: tag = MPI_ANY_TAG; break;
            case 3: src = MPI_ANY_SOURCE, tag = MPI_ANY_TAG; break;
            default: break;
            }
            int cap = mode[chunk[i].src] == 3 ? largest_to_me
                      : mode[chunk[i].src] == 2 ? next_from[chunk[i].src] : chunk[i].size;
            rbufs[nrecv] = malloc((size_t)cap + 1);
            expect_idx[nrecv] = mode[chunk[i].src] == 3 ? -1 : i;
            MPI_Irecv(rbufs[nrecv], cap, MPI_BYTE, src, tag, MPI_COMM_WORLD, &reqs[nreq++]);
            nrecv++;
        }
        int nsend = 0;
        for (int i = 0; i < n; i++) {
            if (chunk[i].src != rank)
                continue;
            sbufs[nsend] = malloc((size_t)chunk[i].size + 1);
            fill(sbufs[nsend], &chunk[i]);
            MPI_Isend(sbufs[nsend], chunk[i].size, MPI_BYTE, chunk[i].dst, chunk[i].tag, MPI_COMM_WORLD,
                      &reqs[nreq++]);
            nsend++;
        }
        MPI_Waitall(nreq, reqs, sts);

        /* Check every receive. MPI_ANY_TAG receives of a source got its messages in sending order, which
         * is the order the receives were posted in, so expect_idx already names the right message; a
         * double-wildcard chunk is checked by per-source order. */
        for (int s = 0; s < size; s++)
            next_from[s] = 0;
        for (int k = 0; k < nrecv; k++) {
            MPI_Status *st = &sts[k];
            int bytes;
            MPI_Get_count(st, MPI_BYTE, &bytes);
            int i = expect_idx[k];
            if (i < 0) {
                /* The next message of st->MPI_SOURCE to us, in schedule order, must be this one. */
                int src = st->MPI_SOURCE;
                if (src < 0 || src >= size) {
                    fprintf(stderr, "rank %d: chunk at %ld: bad source %d\n", rank, base, src);
                    failures++;
                    continue;
                }
                for (i = next_from[src]; i < n && !(chunk[i].src == src && chunk[i].dst == rank); i++)
                    ;
                next_from[src] = i + 1;
                if (i >= n) {
                    fprintf(stderr, "rank %d: chunk at %ld: more messages from %d than sent\n", rank, base, src);
                    failures++;
                    continue;
                }
            }
            if (st->MPI_SOURCE != chunk[i].src || st->MPI_TAG != chunk[i].tag || !verify(rbufs[k], bytes, &chunk[i])) {
                if (failures < 10)
                    fprintf(stderr,
                            "rank %d: message %d (from %d tag %d, %d bytes, mode %d) arrived as from %d tag %d, "
                            "%d bytes%s\n",
                            rank, chunk[i].seq, chunk[i].src, chunk[i].tag, chunk[i].size, mode[chunk[i].src],
                            st->MPI_SOURCE, st->MPI_TAG, bytes,
                            bytes == chunk[i].size ? ", wrong content or order" : "");
                failures++;
            }
            received++;
        }
        for (int k = 0; k < nrecv; k++)
            free(rbufs[k]);
        for (int k = 0; k < nsend; k++)
            free(sbufs[k]);
        barrier();
    }

    /* The verdict at rank 0. */
    long all_failures = failures, all_received = received;
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            long v[2];
            MPI_Recv(v, 2, MPI_LONG, r, 3, ctrl, MPI_STATUS_IGNORE);
            all_failures += v[0];
            all_received += v[1];
        }
        if (all_received != total) {
            fprintf(stderr, "received %ld messages in all, sent %ld\n", all_received, total);
            all_failures++;
        }
        printf("pt2pt_soak: %ld messages, %s\n", total, all_failures ? "FAILED" : "ok");
    } else {
        long v[2] = {failures, received};
        MPI_Send(v, 2, MPI_LONG, 0, 3, ctrl);
    }
    MPI_Comm_free(&ctrl);
    free(chunk), free(sbufs), free(rbufs), free(reqs), free(sts), free(expect_idx), free(mode), free(next_from);
    MPI_Finalize();
    return all_failures != 0 && rank == 0;
}
