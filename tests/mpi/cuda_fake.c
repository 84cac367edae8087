/* The CUDA layer on the fake driver (tests/fakecuda), loaded by Axon's own loader through
 * AXON_CUDA_LIBRARY, in every rank of a job (tests/mpi/cuda_fake.test runs it with AXON_CUDA=1). Each
 * rank checks: MPI_Init loaded the fake and made no CUDA context, so host memory is told without asking
 * the driver; once the program has a context, device, managed, pinned, registered and host buffers
 * are classified right, with the fake's ids, and a cached device range costs one driver call; a freed
 * and reallocated buffer gets its new id; the memory kinds copy to and from the device with exactly
 * one driver copy each, with and without a context current in the thread. Then the ranks move device
 * data through host staging buffers and MPI, and rank 0's device buffer is opened by rank 1 through an
 * IPC handle: the building blocks of the CUDA-aware paths still to come.
 *
 * It links the core library to reach the classification and the memory kinds. Exits 77 (skipped) in a
 * build without cuda.h or without a driver to load. */
#include "config.h"

#include <stdio.h>

#if !AXON_HAVE_CUDA_H

int main(void)
{
    printf("SKIP: this build has no CUDA support (configure found no cuda.h)\n");
    return 77;
}

#else

#include "cuda_support/cuda_support.h"
#include "memkind/axon_memkind.h"
#include "tests/fakecuda/fakecuda.h"
#include "tests/mpi/axon_test.h"
#include "tests/mpi/axon_test_cuda.h"

#include <cuda.h>
#include <sys/mman.h>

#define FK_STR_(x) #x
#define FK_STR(x) FK_STR_(x) /* cuda.h's exported name: cuMemHostRegister -> "cuMemHostRegister_v2" */

/* A driver entry point by cuda.h's name, with cuda.h's prototype. */
#define CUSYM(fn) ((__typeof__(&fn))need_sym(FK_STR(fn)))

static void *need_sym(const char *name)
{
    void *fn = test_cuda_sym(name);
    if (!fn) {
        printf("FAILED: the driver has no %s\n", name);
        exit(1);
    }
    return fn;
}

static fakecuda_calls_fn calls;
static fakecuda_copy_stats_fn copy_stats;
static fakecuda_reset_stats_fn reset_stats;

static struct axon_memkind_info classify(const void *p)
{
    struct axon_memkind_info info;
    memset(&info, 0x5a, sizeof(info));
    int rc = axon_cuda_memtype_of(p, &info);
    EXPECT(rc == MPI_SUCCESS);
    return info;
}

static unsigned long long buffer_id(const void *p)
{
    unsigned long long id = 0;
    TEST_CU(CUSYM(cuPointerGetAttribute)(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, (CUdeviceptr)(uintptr_t)p));
    return id;
}

static void fill(unsigned char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(seed * 31 + i);
}

#define N 100000

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT(axon_cuda_enabled());
    const char *ndev_env = getenv("FAKECUDA_DEVICES");
    int ndev = ndev_env && *ndev_env ? atoi(ndev_env) : 1;
    EXPECT(axon_cuda_device_count() == ndev);

    /* The library Axon loaded is the one named: opened again, it is the same instance, whose counts
     * tell what Axon asked of it. */
    void *lib = dlopen(test_cuda_library(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib || !dlsym(lib, FAKECUDA_CALLS_SYMBOL)) {
        printf("SKIP: %s is not the fake driver (tests/fakecuda)\n", test_cuda_library());
        exit(77);
    }
    calls = (fakecuda_calls_fn)dlsym(lib, FAKECUDA_CALLS_SYMBOL);
    copy_stats = (fakecuda_copy_stats_fn)dlsym(lib, FAKECUDA_COPY_STATS_SYMBOL);
    reset_stats = (fakecuda_reset_stats_fn)dlsym(lib, FAKECUDA_RESET_STATS_SYMBOL);

    /* MPI_Init made no context; while there is none, host memory costs no driver query. */
    EXPECT(calls("cuDevicePrimaryCtxRetain") == 0);
    EXPECT(calls("cuCtxPushCurrent") == 0 && calls("cuCtxSetCurrent") == 0);
    unsigned char *host = mmap(NULL, 2 * N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(host != MAP_FAILED);
    unsigned long long queries = calls("cuPointerGetAttributes");
    EXPECT(classify(host).type == AXON_CUDA_MEMTYPE_HOST);
    EXPECT(calls("cuPointerGetAttributes") == queries);

    /* A context, as a program using the runtime would have, and memory of every kind. */
    int dev = test_cuda_setup();
    EXPECT(dev == rank % ndev);
    unsigned char *d = test_cuda_malloc(N);
    struct axon_memkind_info info = classify(d + 100);
    EXPECT(info.type == AXON_CUDA_MEMTYPE_DEVICE && info.kind == AXON_MEMKIND_CUDA);
    EXPECT(info.device == dev && info.base == (uintptr_t)d && info.size == N);
    EXPECT(info.id == buffer_id(d) && info.id != 0);
    /* Cached: one validation (the buffer id) and no full query. */
    queries = calls("cuPointerGetAttributes");
    unsigned long long single = calls("cuPointerGetAttribute");
    info = classify(d + N - 1);
    EXPECT(info.type == AXON_CUDA_MEMTYPE_DEVICE && info.base == (uintptr_t)d);
    EXPECT(calls("cuPointerGetAttributes") == queries && calls("cuPointerGetAttribute") == single + 1);

    CUdeviceptr m;
    TEST_CU(CUSYM(cuMemAllocManaged)(&m, N, CU_MEM_ATTACH_GLOBAL));
    info = classify((void *)(uintptr_t)m);
    EXPECT(info.type == AXON_CUDA_MEMTYPE_MANAGED && info.kind == AXON_MEMKIND_CUDA && info.device == dev);

    void *pinned;
    TEST_CU(CUSYM(cuMemHostAlloc)(&pinned, N, 0));
    info = classify(pinned);
    EXPECT(info.type == AXON_CUDA_MEMTYPE_PINNED && info.kind == AXON_MEMKIND_HOST);
    EXPECT(info.base == (uintptr_t)pinned && info.size == N);

    /* Registered host memory is pinned while registered, and host again after. A host page, once the
     * driver called it so, is host until unmapped: asked again, nothing is asked of the driver (a page
     * registered after that still says host, which Axon treats as it treats pinned memory). */
    unsigned char *reg = mmap(NULL, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(reg != MAP_FAILED);
    TEST_CU(CUSYM(cuMemHostRegister)(reg, N, 0));
    EXPECT(classify(reg + 10).type == AXON_CUDA_MEMTYPE_PINNED);
    TEST_CU(CUSYM(cuMemHostUnregister)(reg));
    EXPECT(classify(reg + 10).type == AXON_CUDA_MEMTYPE_HOST);
    queries = calls("cuPointerGetAttributes");
    EXPECT(classify(reg + 20).type == AXON_CUDA_MEMTYPE_HOST);
    EXPECT(calls("cuPointerGetAttributes") == queries);
    /* Unmapped, and mapped again at the same place: asked again. */
    EXPECT(munmap(reg, N) == 0);
    EXPECT(mmap(reg, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == (void *)reg);
    EXPECT(classify(reg + 20).type == AXON_CUDA_MEMTYPE_HOST);
    EXPECT(calls("cuPointerGetAttributes") == queries + 1);
    munmap(reg, N);
    int on_stack = 0;
    static int in_static;
    queries = calls("cuPointerGetAttributes");
    EXPECT(classify(&on_stack).type == AXON_CUDA_MEMTYPE_HOST);
    EXPECT(classify(&in_static).type == AXON_CUDA_MEMTYPE_HOST);
    EXPECT(calls("cuPointerGetAttributes") == queries);

    /* Freed and reallocated: the new buffer's id, never the cached one. */
    uint64_t old_id = classify(d).id;
    test_cuda_free(d);
    d = test_cuda_malloc(N);
    info = classify(d);
    EXPECT(info.type == AXON_CUDA_MEMTYPE_DEVICE && info.id != old_id && info.id == buffer_id(d));

    /* The memory kinds: one driver copy each way, in the thread's context or, without one, in the
     * device's primary context pushed for the copy and popped after. */
    const struct axon_memkind_ops *cuda = axon_memkind_get(AXON_MEMKIND_CUDA);
    unsigned char *out = host + N;
    for (int with_context = 1; with_context >= 0; with_context--) {
        if (!with_context)
            TEST_CU(CUSYM(cuCtxSetCurrent)(NULL));
        fill(host, N, 7 + with_context);
        reset_stats();
        info = classify(d);
        EXPECT(cuda->copy_from_host(d, host, N, &info) == MPI_SUCCESS);
        memset(out, 0, N);
        EXPECT(cuda->copy_to_host(out, d, N, &info) == MPI_SUCCESS);
        EXPECT(memcmp(host, out, N) == 0);
        struct fakecuda_copy_stats st;
        copy_stats(&st);
        EXPECT(st.htod == 1 && st.dtoh == 1 && st.dtod == 0 && st.htoh == 0);
        EXPECT(st.bytes_htod == N && st.bytes_dtoh == N);
        CUcontext cur = (CUcontext)1;
        TEST_CU(CUSYM(cuCtxGetCurrent)(&cur));
        EXPECT(with_context ? cur != NULL : cur == NULL);
        EXPECT(calls("cuCtxPushCurrent") == (with_context ? 0 : 2));
    }
    TEST_CU(CUSYM(cuCtxSetCurrent)(test_cu.ctx));

    /* Device data around the ring through host staging buffers. */
    fill(host, N, (unsigned)rank);
    EXPECT(test_cuda_from_host(d, host, N) == 0);
    info = classify(d);
    EXPECT(cuda->copy_to_host(host, d, N, &info) == MPI_SUCCESS);
    MPI_Sendrecv(host, N, MPI_BYTE, (rank + 1) % size, 0, out, N, MPI_BYTE, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(cuda->copy_from_host(d, out, N, &info) == MPI_SUCCESS);
    memset(host, 0, N);
    EXPECT(test_cuda_to_host(host, d, N) == 0);
    fill(out, N, (unsigned)((rank + size - 1) % size));
    EXPECT(memcmp(host, out, N) == 0);

    /* IPC: rank 1 opens rank 0's device buffer, reads it and writes it back changed. */
    if (size >= 2 && rank < 2) {
        CUipcMemHandle handle;
        if (rank == 0) {
            fill(host, N, 40);
            EXPECT(test_cuda_from_host(d, host, N) == 0);
            TEST_CU(CUSYM(cuCtxSynchronize)()); /* the copy may land late; rank 1 reads in place */
            TEST_CU(CUSYM(cuIpcGetMemHandle)(&handle, (CUdeviceptr)(uintptr_t)d));
            MPI_Send(&handle, sizeof(handle), MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            EXPECT(test_cuda_to_host(host, d, N) == 0);
            fill(out, N, 41);
            EXPECT(memcmp(host, out, N) == 0);
        } else {
            MPI_Recv(&handle, sizeof(handle), MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CUdeviceptr peer;
            TEST_CU(CUSYM(cuIpcOpenMemHandle)(&peer, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
            info = classify((void *)(uintptr_t)peer);
            EXPECT(info.type == AXON_CUDA_MEMTYPE_DEVICE && info.base == peer && info.size == N);
            EXPECT(cuda->copy_to_host(host, (void *)(uintptr_t)peer, N, &info) == MPI_SUCCESS);
            fill(out, N, 40);
            EXPECT(memcmp(host, out, N) == 0);
            fill(host, N, 41);
            EXPECT(cuda->copy_from_host((void *)(uintptr_t)peer, host, N, &info) == MPI_SUCCESS);
            TEST_CU(CUSYM(cuIpcCloseMemHandle)(peer));
            MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    test_cuda_free(d);
    TEST_CU(CUSYM(cuMemFree)(m));
    TEST_CU(CUSYM(cuMemFreeHost)(pinned));
    MPI_Finalize();
    /* MPI_Finalize released the context the layer retained for its copies, not the program's. */
    unsigned int flags;
    int active = 0;
    TEST_CU(CUSYM(cuDevicePrimaryCtxGetState)(dev, &flags, &active));
    EXPECT(active == 1);
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}

#endif
