/* Point-to-point with GPU buffers: every combination of device and host memory on the two sides (D->D,
 * H->D, D->H), at sizes that take each path of the engine (empty, the node's rings, UCX eager and
 * rendezvous), through blocking, nonblocking, synchronous, persistent, matched-probe and send-receive
 * calls, contiguous and strided (whose gaps in the receive buffer must come back unchanged). Run on the
 * fake driver (tests/fakecuda), whose device memory faults when the CPU touches it, so a path that reads
 * or writes a device pointer directly ends the test; on a real GPU it runs as it is. Even ranks send to
 * the odd rank above them. Arguments (the GPU machine's tests/gpu/gpu_pt2pt.test): "big" adds 16, 64 and 256 MiB
 * for the blocking and nonblocking calls; "managed" makes the device side's buffers managed memory
 * (cuMemAllocManaged) instead of cuMemAlloc's. */
#include "axon_test.h"
#include "axon_test_cuda.h"

#include <stdbool.h>
#include <stdint.h>

static int rank, size, peer;
static bool sender;
static int one_node; /* every rank on this node: IPC is possible (axon_test_one_node) */
static bool managed; /* "managed": device buffers from cuMemAllocManaged */

/* A device buffer of the kind the run asks for. */
static void *device_alloc(size_t n)
{
    if (!managed)
        return test_cuda_malloc(n);
    test_cu_result (*alloc_managed)(test_cu_ptr *, size_t, unsigned int) =
        (test_cu_result(*)(test_cu_ptr *, size_t, unsigned int))test_cuda_sym("cuMemAllocManaged");
    if (!alloc_managed) {
        printf("FAILED: the driver has no cuMemAllocManaged\n");
        exit(1);
    }
    test_cu_ptr p = 0;
    TEST_CU(alloc_managed(&p, n, 1 /* CU_MEM_ATTACH_GLOBAL */));
    return (void *)(uintptr_t)p;
}

static unsigned char pattern(int size_index, int kind, size_t k)
{
    return (unsigned char)(size_index * 29 + kind * 7 + k * 13 + 1);
}

/* A buffer of n bytes, on the device or the host, filled with fill. */
static void *make_buffer(bool device, size_t n, unsigned char *fill)
{
    size_t alloc = n ? n : 1;
    if (!device) {
        void *p = malloc(alloc);
        memcpy(p, fill, n);
        return p;
    }
    void *p = device_alloc(alloc);
    TEST_CU(test_cuda_from_host(p, fill, n));
    return p;
}

static void read_buffer(bool device, void *buf, size_t n, unsigned char *out)
{
    if (device)
        TEST_CU(test_cuda_to_host(out, buf, n));
    else
        memcpy(out, buf, n);
}

static void free_buffer(bool device, void *buf)
{
    if (device)
        test_cuda_free(buf);
    else
        free(buf);
}

enum { CALL_BLOCKING, CALL_NONBLOCKING, CALL_SYNC, CALL_PERSISTENT, CALL_MPROBE, CALL_SENDRECV, CALL_STRIDED,
       NCALLS };
static const char *call_name[NCALLS] = {"send/recv", "isend/irecv", "ssend/recv", "send_init/recv_init",
                                        "send/mprobe+mrecv", "sendrecv", "strided"};

/* One message of n bytes from the sender's buffer (device or not) into the receiver's. */
static void one(int si, size_t n, bool sdev, bool rdev, int call)
{
    /* Strided: every other byte of a buffer twice the size, on both sides. */
    bool strided = call == CALL_STRIDED;
    size_t span = strided ? 2 * n : n;
    unsigned char *want = malloc(span + 1), *got = malloc(span + 1), *init = malloc(span + 1);
    for (size_t k = 0; k < span; k++) {
        want[k] = pattern(si, call, k);
        init[k] = (unsigned char)(0xa5 ^ k);
    }
    MPI_Datatype type = MPI_BYTE;
    int count = (int)n;
    if (strided) {
        MPI_Type_vector((int)n, 1, 2, MPI_BYTE, &type);
        MPI_Type_commit(&type);
        count = n ? 1 : 0;
    }
    bool dev = sender ? sdev : rdev;
    void *buf = make_buffer(dev, span, sender ? want : init);
    int tag = si * 16 + call;
    MPI_Status st;
    MPI_Request req;
    if (sender) {
        switch (call) {
        case CALL_NONBLOCKING:
            MPI_Isend(buf, count, type, peer, tag, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            break;
        case CALL_SYNC:
            MPI_Ssend(buf, count, type, peer, tag, MPI_COMM_WORLD);
            break;
        case CALL_PERSISTENT:
            MPI_Send_init(buf, count, type, peer, tag, MPI_COMM_WORLD, &req);
            for (int r = 0; r < 2; r++) {
                MPI_Start(&req);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
            }
            MPI_Request_free(&req);
            break;
        case CALL_SENDRECV: {
            unsigned char dummy;
            MPI_Sendrecv(buf, count, type, peer, tag, &dummy, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
            break;
        }
        default:
            MPI_Send(buf, count, type, peer, tag, MPI_COMM_WORLD);
        }
    } else {
        switch (call) {
        case CALL_NONBLOCKING:
            MPI_Irecv(buf, count, type, peer, tag, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, &st);
            break;
        case CALL_PERSISTENT:
            MPI_Recv_init(buf, count, type, peer, tag, MPI_COMM_WORLD, &req);
            for (int r = 0; r < 2; r++) {
                MPI_Start(&req);
                MPI_Wait(&req, &st);
            }
            MPI_Request_free(&req);
            break;
        case CALL_MPROBE: {
            MPI_Message msg;
            MPI_Mprobe(peer, tag, MPI_COMM_WORLD, &msg, &st);
            MPI_Mrecv(buf, count, type, &msg, &st);
            break;
        }
        case CALL_SENDRECV:
            MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, tag, buf, count, type, peer, tag, MPI_COMM_WORLD, &st);
            break;
        default:
            MPI_Recv(buf, count, type, peer, tag, MPI_COMM_WORLD, &st);
        }
        int bytes = -1;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        EXPECT(bytes == (int)n);
        read_buffer(dev, buf, span, got);
        size_t bad = span;
        for (size_t k = 0; k < span && bad == span; k++) {
            unsigned char expect = strided && k % 2 ? init[k] : want[strided ? k : k];
            if (got[k] != expect)
                bad = k;
        }
        if (bad != span)
            printf("rank %d FAILED: %s of %zu bytes %s->%s differs at byte %zu\n", rank, call_name[call], n,
                   sdev ? "D" : "H", rdev ? "D" : "H", bad);
        failures += bad != span;
    }
    free_buffer(dev, buf);
    if (strided)
        MPI_Type_free(&type);
    free(want);
    free(got);
    free(init);
}

/* Many messages from one GPU buffer open its IPC handle once (the cache); a buffer freed and allocated
 * again (the same address, perhaps) is read afresh, never through the old mapping. Counted on the fake
 * driver only, and only when IPC is on. */
static void ipc_cache(void)
{
    unsigned long long (*calls)(const char *) = (unsigned long long (*)(const char *))test_cuda_sym("fakecuda_calls");
    const char *knob = getenv("AXON_CUDA_IPC");
    bool counted = calls && !(knob && strcmp(knob, "0") == 0) && one_node;
    enum { N = 65536, ROUNDS = 5 };
    unsigned char *host = malloc(N), *got = malloc(N);
    for (int gen = 0; gen < 2; gen++) {
        void *buf = test_cuda_malloc(N);
        unsigned long long before = calls ? calls("cuIpcOpenMemHandle") : 0;
        for (int r = 0; r < ROUNDS; r++) {
            if (sender) {
                memset(host, 16 * gen + r + 1, N);
                TEST_CU(test_cuda_from_host(buf, host, N));
                MPI_Send(buf, N, MPI_BYTE, peer, 900 + r, MPI_COMM_WORLD);
            } else {
                MPI_Recv(buf, N, MPI_BYTE, peer, 900 + r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                TEST_CU(test_cuda_to_host(got, buf, N));
                EXPECT(got[0] == 16 * gen + r + 1 && got[N - 1] == 16 * gen + r + 1);
            }
        }
        if (!sender && counted) {
            unsigned long long opened = calls("cuIpcOpenMemHandle") - before;
            if (opened != 1)
                printf("rank %d FAILED: %d messages from one buffer opened %llu IPC handles\n", rank, ROUNDS, opened);
            failures += opened != 1;
        }
        test_cuda_free(buf);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(host);
    free(got);
    if (!counted)
        return;
    /* A window of receives posted ahead of their IPC messages (osu_bw's pattern) pins no host memory:
     * the message writes the GPU buffer itself. Of a size whose staging class (32 MiB) no other message
     * here uses, so no cached buffer hides an allocation. */
    enum { BIG = 24 << 20, WINDOW = 4 };
    void *dbuf = test_cuda_malloc(BIG);
    MPI_Request req[WINDOW];
    unsigned long long pinned = calls("cuMemHostAlloc");
    for (int w = 0; w < WINDOW; w++) {
        if (sender)
            MPI_Isend(dbuf, BIG, MPI_BYTE, peer, 950, MPI_COMM_WORLD, &req[w]);
        else
            MPI_Irecv(dbuf, BIG, MPI_BYTE, peer, 950, MPI_COMM_WORLD, &req[w]);
    }
    MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
    pinned = sender ? 0 : calls("cuMemHostAlloc") - pinned; /* (a sender's descriptors come from the pool) */
    if (pinned != 0)
        printf("rank %d FAILED: %d IPC messages of %d bytes pinned %llu host buffers\n", rank, WINDOW, BIG, pinned);
    failures += pinned != 0;
    test_cuda_free(dbuf);
}

/* Sends from GPU buffers that nobody receives are cancelled, whatever their path (an IPC descriptor, a
 * pipeline's request to send, a staged synchronous message): their waits return, and the receiver's next
 * message on the tag is the one sent after them. */
static void cancel_device(void)
{
    enum { N = 3, BIG = 4 << 20, TAG = 960 };
    if (sender) {
        void *buf = test_cuda_malloc(BIG);
        MPI_Request req[N];
        MPI_Status st[N];
        MPI_Isend(buf, BIG, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[0]);
        MPI_Issend(buf, 100, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[1]);
        MPI_Issend(buf, BIG, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[2]);
        for (int i = 0; i < N; i++)
            MPI_Cancel(&req[i]);
        MPI_Waitall(N, req, st);
        for (int i = 0; i < N; i++) {
            int flag = 0;
            MPI_Test_cancelled(&st[i], &flag);
            if (!flag)
                printf("rank %d FAILED: GPU send %d not cancelled\n", rank, i);
            failures += !flag;
        }
        int go = 1;
        MPI_Send(&go, 1, MPI_INT, peer, TAG + 1, MPI_COMM_WORLD);
        MPI_Send(&go, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD);
        test_cuda_free(buf);
    } else {
        int go = 0, value = 0, count = -1;
        MPI_Status st;
        MPI_Recv(&go, 1, MPI_INT, peer, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&value, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT(count == 1 && value == 1);
    }
}

int main(int argc, char **argv)
{
    test_cuda_setup();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = rank ^ 1;
    sender = rank % 2 == 0;
    one_node = axon_test_one_node();
    bool big = false;
    for (int a = 1; a < argc; a++) {
        big |= strcmp(argv[a], "big") == 0;
        managed |= strcmp(argv[a], "managed") == 0;
    }
    static const size_t sizes[] = {0, 1, 8, 100, 4096, 32768, 40000, 1 << 20, 4 << 20,
                                   16 << 20, 64 << 20, 256 << 20};
    int nsmall = 9, nsizes = big ? (int)(sizeof(sizes) / sizeof(sizes[0])) : nsmall;
    if (peer < size) {
        for (int combo = 0; combo < 3; combo++) {
            bool sdev = combo != 1, rdev = combo != 2; /* D->D, H->D, D->H */
            for (int si = 0; si < nsizes; si++)
                for (int call = 0; call < NCALLS; call++)
                    if (si < nsmall || call == CALL_BLOCKING || call == CALL_NONBLOCKING)
                        one(si, sizes[si], sdev, rdev, call);
        }
    }
    if (peer < size) {
        cancel_device();
        ipc_cache();
    }
    else
        for (int gen = 0; gen < 2; gen++)
            MPI_Barrier(MPI_COMM_WORLD);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? "cuda_pt2pt: %d failures\n" : "cuda_pt2pt: ok\n", total);
    MPI_Finalize();
    return total != 0;
}
