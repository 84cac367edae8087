/* GPU test of the memory-type classification on a real driver: MPI_Init leaves no CUDA context behind;
 * host memory (stack, heap, mmap), device memory (cuMemAlloc, freed and reallocated at the same
 * address), managed memory, pinned memory (cuMemHostAlloc, and cuMemHostRegister then unregistered) and
 * VMM memory (two cuMemCreate allocations mapped side by side in one reservation, one of them replaced)
 * are each classified right; copies through the memory kinds work with and without a current context,
 * and from a thread with none. It prints what a classification costs on this machine.
 *
 * It loads libcuda.so.1 itself (the library never links it) and exits 77, which the harness counts as
 * skipped, when there is no driver or no GPU. */
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

#include <cuda.h>
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* The driver functions the test calls itself. */
static struct {
    CUresult (*init)(unsigned int);
    CUresult (*get_error_string)(CUresult, const char **);
    CUresult (*device_get_count)(int *);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*primary_ctx_get_state)(CUdevice, unsigned int *, int *);
    CUresult (*primary_ctx_retain)(CUcontext *, CUdevice);
    CUresult (*primary_ctx_release)(CUdevice);
    CUresult (*ctx_get_current)(CUcontext *);
    CUresult (*ctx_set_current)(CUcontext);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*mem_alloc_managed)(CUdeviceptr *, size_t, unsigned int);
    CUresult (*mem_host_alloc)(void **, size_t, unsigned int);
    CUresult (*mem_free_host)(void *);
    CUresult (*mem_host_register)(void *, size_t, unsigned int);
    CUresult (*mem_host_unregister)(void *);
    CUresult (*mem_get_allocation_granularity)(size_t *, const CUmemAllocationProp *,
                                               CUmemAllocationGranularity_flags);
    CUresult (*mem_create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
    CUresult (*mem_address_reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*mem_map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*mem_set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*mem_unmap)(CUdeviceptr, size_t);
    CUresult (*mem_address_free)(CUdeviceptr, size_t);
    CUresult (*mem_release)(CUmemGenericAllocationHandle);
} cu;

static const struct {
    const char *symbol;
    size_t offset;
} cu_symbols[] = {
#define CU_SYM(field, symbol) {symbol, offsetof(__typeof__(cu), field)}
    CU_SYM(init, "cuInit"),
    CU_SYM(get_error_string, "cuGetErrorString"),
    CU_SYM(device_get_count, "cuDeviceGetCount"),
    CU_SYM(device_get, "cuDeviceGet"),
    CU_SYM(primary_ctx_get_state, "cuDevicePrimaryCtxGetState"),
    CU_SYM(primary_ctx_retain, "cuDevicePrimaryCtxRetain"),
    CU_SYM(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2"),
    CU_SYM(ctx_get_current, "cuCtxGetCurrent"),
    CU_SYM(ctx_set_current, "cuCtxSetCurrent"),
    CU_SYM(mem_alloc, "cuMemAlloc_v2"),
    CU_SYM(mem_free, "cuMemFree_v2"),
    CU_SYM(mem_alloc_managed, "cuMemAllocManaged"),
    CU_SYM(mem_host_alloc, "cuMemHostAlloc"),
    CU_SYM(mem_free_host, "cuMemFreeHost"),
    CU_SYM(mem_host_register, "cuMemHostRegister_v2"),
    CU_SYM(mem_host_unregister, "cuMemHostUnregister"),
    CU_SYM(mem_get_allocation_granularity, "cuMemGetAllocationGranularity"),
    CU_SYM(mem_create, "cuMemCreate"),
    CU_SYM(mem_address_reserve, "cuMemAddressReserve"),
    CU_SYM(mem_map, "cuMemMap"),
    CU_SYM(mem_set_access, "cuMemSetAccess"),
    CU_SYM(mem_unmap, "cuMemUnmap"),
    CU_SYM(mem_address_free, "cuMemAddressFree"),
    CU_SYM(mem_release, "cuMemRelease"),
#undef CU_SYM
};

static int failures;

#define CHECK(cond, ...)                                                                                    \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            failures++;                                                                                     \
            printf("FAIL (line %d): ", __LINE__);                                                           \
            printf(__VA_ARGS__);                                                                            \
            printf("\n");                                                                                   \
        }                                                                                                   \
    } while (0)

/* A driver call that must succeed: the test cannot go on without it. */
#define CU(call)                                                                                            \
    do {                                                                                                    \
        CUresult rc_ = (call);                                                                              \
        if (rc_ != CUDA_SUCCESS) {                                                                          \
            const char *s_ = "?";                                                                           \
            cu.get_error_string(rc_, &s_);                                                                  \
            printf("FAIL (line %d): %s: %s\n", __LINE__, #call, s_);                                        \
            exit(1);                                                                                        \
        }                                                                                                   \
    } while (0)

static const char *type_name(enum axon_cuda_memtype t)
{
    static const char *const names[] = {"host", "pinned", "device", "managed", "vmm"};
    return (unsigned)t < 5 ? names[t] : "?";
}

static struct axon_memkind_info classify(const void *p)
{
    struct axon_memkind_info info;
    memset(&info, 0, sizeof(info));
    int rc = axon_cuda_memtype_of(p, &info);
    CHECK(rc == MPI_SUCCESS, "classification of %p returned %d", p, rc);
    return info;
}

static void expect(const void *p, enum axon_cuda_memtype type, const char *what)
{
    struct axon_memkind_info info = classify(p);
    CHECK(info.type == (int)type, "%s at %p: classified %s, expected %s", what, p, type_name(info.type), type_name(type));
    printf("%-40s %-8s device %d base %#lx size %zu id %llu\n", what, type_name(info.type), info.device,
           (unsigned long)info.base, info.size, (unsigned long long)info.id);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* What one classification of p costs, on average over n. */
static void cost(const void *p, int n, const char *what)
{
    struct axon_memkind_info info;
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        axon_cuda_memtype_of(p, &info);
    printf("cost: %-34s %8.1f ns\n", what, (now_ns() - t0) / n);
}

static CUdeviceptr thread_ptr;
static struct axon_memkind_info thread_info;
static CUcontext thread_ctx;

static void *other_thread(void *arg)
{
    (void)arg;
    cu.ctx_get_current(&thread_ctx);
    thread_info = classify((void *)thread_ptr);
    return NULL;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("SKIP: no CUDA driver (%s)\n", dlerror());
        return 77;
    }
    for (size_t i = 0; i < sizeof(cu_symbols) / sizeof(cu_symbols[0]); i++) {
        void *fn = dlsym(lib, cu_symbols[i].symbol);
        if (!fn) {
            printf("SKIP: the CUDA driver lacks %s\n", cu_symbols[i].symbol);
            return 77;
        }
        memcpy((char *)&cu + cu_symbols[i].offset, &fn, sizeof(fn));
    }
    int ndev = 0;
    if (cu.init(0) != CUDA_SUCCESS || cu.device_get_count(&ndev) != CUDA_SUCCESS || ndev == 0) {
        printf("SKIP: no GPU\n");
        return 77;
    }
    CUdevice dev;
    CU(cu.device_get(&dev, 0));

    MPI_Init(&argc, &argv);
    CHECK(axon_cuda_enabled(), "CUDA support is off after MPI_Init: %s", axon_cuda_status());
    unsigned int flags;
    int active = 1;
    CUcontext ctx = (CUcontext)1;
    CU(cu.primary_ctx_get_state(dev, &flags, &active));
    CU(cu.ctx_get_current(&ctx));
    CHECK(!active && !ctx, "MPI_Init left a CUDA context (primary active %d, current %p)", active, (void *)ctx);

    /* Host memory while no context exists. */
    int on_stack[64];
    char *small = malloc(256);
    size_t big_size = 64 << 20;
    char *big = malloc(big_size); /* mmap'ed by glibc */
    expect(on_stack, AXON_CUDA_MEMTYPE_HOST, "stack");
    expect(small, AXON_CUDA_MEMTYPE_HOST, "malloc(256)");
    expect(big + 4096, AXON_CUDA_MEMTYPE_HOST, "malloc(64 MiB), no context yet");
    cost(on_stack, 1000000, "host, stack");
    cost(small, 1000000, "host, brk heap");
    cost(big, 100000, "host, mmap, no context");

    CU(cu.primary_ctx_retain(&ctx, dev));
    CU(cu.ctx_set_current(ctx));
    expect(big + 4096, AXON_CUDA_MEMTYPE_HOST, "malloc(64 MiB), context");
    cost(big, 100000, "host, mmap, context (driver)");

    /* Device memory; freed and reallocated. */
    size_t len = 1 << 20;
    CUdeviceptr d;
    CU(cu.mem_alloc(&d, len));
    struct axon_memkind_info info = classify((void *)(d + 1000));
    expect((void *)(d + 1000), AXON_CUDA_MEMTYPE_DEVICE, "cuMemAlloc(1 MiB) + 1000");
    CHECK(info.kind == AXON_MEMKIND_CUDA && info.device == 0, "device memory: kind %d device %d", info.kind,
          info.device);
    CHECK(info.base == d && info.size >= len, "device memory: base %#lx size %zu, allocated %#llx size %zu",
          (unsigned long)info.base, info.size, (unsigned long long)d, len);
    CHECK(info.id != 0, "device memory has no buffer id");
    cost((void *)d, 100000, "device, cached");
    uint64_t old_id = info.id;
    CUdeviceptr old = d;
    CU(cu.mem_free(d));
    CU(cu.mem_alloc(&d, len));
    info = classify((void *)(old + 1000));
    if (d == old) {
        printf("reallocated at the same address %#llx\n", (unsigned long long)d);
        CHECK(info.type == AXON_CUDA_MEMTYPE_DEVICE && info.id != old_id,
              "a reallocation at the same address was served stale (id %llu, before %llu)",
              (unsigned long long)info.id, (unsigned long long)old_id);
    } else {
        printf("reallocated elsewhere (%#llx, was %#llx)\n", (unsigned long long)d, (unsigned long long)old);
        CHECK(info.id != old_id, "a freed allocation was served stale");
    }

    /* Managed memory. */
    CUdeviceptr m;
    CU(cu.mem_alloc_managed(&m, len, CU_MEM_ATTACH_GLOBAL));
    expect((void *)(m + 8), AXON_CUDA_MEMTYPE_MANAGED, "cuMemAllocManaged(1 MiB) + 8");

    /* Pinned memory: allocated, and registered then unregistered. */
    void *pinned;
    CU(cu.mem_host_alloc(&pinned, len, 0));
    expect((char *)pinned + 8, AXON_CUDA_MEMTYPE_PINNED, "cuMemHostAlloc(1 MiB) + 8");
    char *reg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(reg != MAP_FAILED, "mmap failed");
    CU(cu.mem_host_register(reg, len, 0));
    expect(reg + 8, AXON_CUDA_MEMTYPE_PINNED, "cuMemHostRegister(mmap 1 MiB) + 8");
    CU(cu.mem_host_unregister(reg));
    expect(reg + 8, AXON_CUDA_MEMTYPE_HOST, "the same, unregistered");

    /* VMM: two allocations side by side in one reservation, then the first replaced. */
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t g;
    CU(cu.mem_get_allocation_granularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUdeviceptr r;
    CU(cu.mem_address_reserve(&r, 4 * g, 0, 0, 0));
    CUmemGenericAllocationHandle h1, h2, h3;
    CU(cu.mem_create(&h1, 2 * g, &prop, 0));
    CU(cu.mem_create(&h2, 2 * g, &prop, 0));
    CU(cu.mem_map(r, 2 * g, 0, h1, 0));
    CU(cu.mem_map(r + 2 * g, 2 * g, 0, h2, 0));
    CUmemAccessDesc access = {.location = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0},
                              .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    CU(cu.mem_set_access(r, 4 * g, &access, 1));
    info = classify((void *)(r + 2 * g + 5));
    expect((void *)(r + 2 * g + 5), AXON_CUDA_MEMTYPE_VMM, "VMM, second mapping + 5");
    CHECK(info.base == r + 2 * g && info.size == 2 * g, "VMM: base %#lx size %zu, mapped at %#llx size %zu",
          (unsigned long)info.base, info.size, (unsigned long long)(r + 2 * g), 2 * g);
    info = classify((void *)(r + 5));
    expect((void *)(r + 5), AXON_CUDA_MEMTYPE_VMM, "VMM, first mapping + 5");
    CHECK(info.base == r && info.size == 2 * g, "VMM: base %#lx size %zu, mapped at %#llx size %zu",
          (unsigned long)info.base, info.size, (unsigned long long)r, 2 * g);
    cost((void *)r, 100000, "vmm (cached if block ids)");
    uint64_t first_id = info.id;
    CU(cu.mem_unmap(r, 2 * g));
    CU(cu.mem_release(h1));
    CU(cu.mem_create(&h3, 2 * g, &prop, 0));
    CU(cu.mem_map(r, 2 * g, 0, h3, 0));
    CU(cu.mem_set_access(r, 2 * g, &access, 1));
    info = classify((void *)(r + 5));
    expect((void *)(r + 5), AXON_CUDA_MEMTYPE_VMM, "VMM, first mapping replaced + 5");
    printf("VMM ids: first mapping %llu, its replacement %llu\n", (unsigned long long)first_id,
           (unsigned long long)info.id);
    /* An unmapped part of the reservation: an error or host, never the old mapping. */
    CU(cu.mem_unmap(r + 2 * g, 2 * g));
    int rc = axon_cuda_memtype_of((void *)(r + 2 * g + 5), &info);
    printf("VMM, unmapped part: rc %d, %s\n", rc, rc == MPI_SUCCESS ? type_name(info.type) : "-");
    CHECK(rc == MPI_ERR_BUFFER || (rc == MPI_SUCCESS && info.type == AXON_CUDA_MEMTYPE_HOST),
          "an unmapped VMM range was classified %s", type_name(info.type));

    /* Copies through the memory kinds, in the current context and with none current. */
    char *src = malloc(len), *dst = malloc(len);
    for (size_t i = 0; i < len; i++)
        src[i] = (char)(i * 13 + 1);
    info = classify((void *)d);
    const struct axon_memkind_ops *ops = axon_memkind_get(info.kind);
    CHECK(ops->copy_from_host((void *)d, src, len, &info) == MPI_SUCCESS, "copy to the device failed");
    CHECK(ops->copy_to_host(dst, (void *)d, len, &info) == MPI_SUCCESS, "copy from the device failed");
    CHECK(memcmp(src, dst, len) == 0, "device round trip changed the data");
    CU(cu.ctx_set_current(NULL));
    memset(dst, 0, len);
    CHECK(ops->copy_to_host(dst, (void *)d, len, &info) == MPI_SUCCESS, "copy without a current context failed");
    CHECK(memcmp(src, dst, len) == 0, "copy without a current context changed the data");
    CUcontext after = (CUcontext)1;
    CU(cu.ctx_get_current(&after));
    CHECK(after == NULL, "the copy left a context current in the thread");
    CU(cu.ctx_set_current(ctx));
    struct axon_memkind_info minfo = classify((void *)m);
    CHECK(axon_memkind_get(minfo.kind)->copy_from_host((void *)m, src, len, &minfo) == MPI_SUCCESS,
          "copy to managed memory failed");
    CHECK(memcmp((void *)m, src, len) == 0, "managed memory does not hold what was copied");

    /* A thread with no context classifies device memory. */
    thread_ptr = d + 64;
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);
    CHECK(thread_ctx == NULL && thread_info.type == AXON_CUDA_MEMTYPE_DEVICE && thread_info.base == d,
          "another thread (context %p) classified device memory as %s", (void *)thread_ctx,
          type_name(thread_info.type));

    cu.mem_unmap(r, 2 * g);
    cu.mem_release(h2);
    cu.mem_release(h3);
    cu.mem_address_free(r, 4 * g);
    cu.mem_free_host(pinned);
    munmap(reg, len);
    cu.mem_free(m);
    cu.mem_free(d);
    free(src);
    free(dst);
    free(small);
    free(big);
    MPI_Finalize();
    cu.ctx_set_current(NULL);
    cu.primary_ctx_release(dev);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}

#endif
