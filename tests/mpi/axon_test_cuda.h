/* GPU memory for the multi-process tests: loads the CUDA driver the way Axon does (AXON_CUDA_LIBRARY,
 * default libcuda.so.1; the tests name the fake driver of tests/fakecuda there), makes a GPU's primary
 * context current as a program using the CUDA runtime would have, and allocates, frees and copies
 * device memory. A program calls test_cuda_setup() first; where neither a real driver with a GPU nor
 * the fake can be loaded, it prints "SKIP: why" and exits 77, which the harness counts as skipped.
 *
 * The header needs no cuda.h (a build without it still compiles the tests): the few driver types used
 * are spelled out with the ABI of cuda.h's (CUresult and CUdevice are int, CUdeviceptr is 64 bits,
 * CUcontext a pointer). Other entry points are reached with test_cuda_sym. */
#ifndef AXON_TEST_CUDA_H
#define AXON_TEST_CUDA_H

#include <dlfcn.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int test_cu_result;              /* CUresult; 0 is CUDA_SUCCESS */
typedef unsigned long long test_cu_ptr;  /* CUdeviceptr */

static struct {
    void *lib;
    int device;
    void *ctx;
    test_cu_result (*init)(unsigned int flags);
    test_cu_result (*get_error_string)(test_cu_result rc, const char **s);
    test_cu_result (*device_get_count)(int *count);
    test_cu_result (*device_get)(int *device, int ordinal);
    test_cu_result (*primary_ctx_retain)(void **ctx, int device);
    test_cu_result (*ctx_set_current)(void *ctx);
    test_cu_result (*mem_alloc)(test_cu_ptr *p, size_t bytes);
    test_cu_result (*mem_free)(test_cu_ptr p);
    test_cu_result (*memcpy_htod)(test_cu_ptr dst, const void *src, size_t bytes);
    test_cu_result (*memcpy_dtoh)(void *dst, test_cu_ptr src, size_t bytes);
} test_cu;

/* The library tests load: AXON_CUDA_LIBRARY, as Axon reads it. */
static inline const char *test_cuda_library(void)
{
    const char *lib = getenv("AXON_CUDA_LIBRARY");
    return lib && *lib ? lib : "libcuda.so.1";
}

/* An entry point of the loaded driver by its exported name ("cuMemAllocManaged", "cuIpcOpenMemHandle_v2",
 * or the fake's "fakecuda_calls"); NULL when it has none. */
static inline void *test_cuda_sym(const char *name)
{
    return test_cu.lib ? dlsym(test_cu.lib, name) : NULL;
}

static inline const char *test_cuda_error(test_cu_result rc)
{
    const char *s = NULL;
    if (!test_cu.get_error_string || test_cu.get_error_string(rc, &s) != 0 || !s)
        s = "unknown error";
    return s;
}

/* A driver call that must succeed, or the test cannot go on. */
#define TEST_CU(call)                                                                                  \
    do {                                                                                               \
        test_cu_result rc_ = (call);                                                                   \
        if (rc_ != 0) {                                                                                \
            printf("FAILED: %s: %s (%d) (line %d)\n", #call, test_cuda_error(rc_), rc_, __LINE__);     \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

/* Loads the driver, calls cuInit, and makes the primary context of one GPU current in the calling
 * thread: GPU (rank in MPI_COMM_WORLD) % GPUs while MPI is up, else GPU 0. Returns the GPU's ordinal.
 * Exits 77 (skipped) without a driver or a GPU. Once per process; later calls return the same GPU. */
static inline int test_cuda_setup(void)
{
    if (test_cu.lib)
        return test_cu.device;
    const char *name = test_cuda_library();
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("SKIP: no CUDA driver (%s)\n", dlerror());
        exit(77);
    }
    static const struct {
        const char *symbol;
        size_t offset;
    } syms[] = {
#define TEST_CU_SYM(field, symbol) {symbol, offsetof(__typeof__(test_cu), field)}
        TEST_CU_SYM(init, "cuInit"),
        TEST_CU_SYM(get_error_string, "cuGetErrorString"),
        TEST_CU_SYM(device_get_count, "cuDeviceGetCount"),
        TEST_CU_SYM(device_get, "cuDeviceGet"),
        TEST_CU_SYM(primary_ctx_retain, "cuDevicePrimaryCtxRetain"),
        TEST_CU_SYM(ctx_set_current, "cuCtxSetCurrent"),
        TEST_CU_SYM(mem_alloc, "cuMemAlloc_v2"),
        TEST_CU_SYM(mem_free, "cuMemFree_v2"),
        TEST_CU_SYM(memcpy_htod, "cuMemcpyHtoD_v2"),
        TEST_CU_SYM(memcpy_dtoh, "cuMemcpyDtoH_v2"),
#undef TEST_CU_SYM
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
        void *fn = dlsym(lib, syms[i].symbol);
        if (!fn) {
            printf("SKIP: %s has no %s\n", name, syms[i].symbol);
            exit(77);
        }
        memcpy((char *)&test_cu + syms[i].offset, &fn, sizeof(fn));
    }
    int count = 0;
    if (test_cu.init(0) != 0 || test_cu.device_get_count(&count) != 0 || count <= 0) {
        printf("SKIP: no GPU (%s)\n", name);
        exit(77);
    }
    int up = 0, down = 0, rank = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int device;
    TEST_CU(test_cu.device_get(&device, rank % count));
    TEST_CU(test_cu.primary_ctx_retain(&test_cu.ctx, device));
    TEST_CU(test_cu.ctx_set_current(test_cu.ctx));
    test_cu.device = rank % count;
    test_cu.lib = lib;
    return test_cu.device;
}

/* Device memory (cuMemAlloc) of bytes; exits the test when the driver refuses. */
static inline void *test_cuda_malloc(size_t bytes)
{
    test_cu_ptr p = 0;
    TEST_CU(test_cu.mem_alloc(&p, bytes));
    return (void *)(uintptr_t)p;
}

static inline void test_cuda_free(void *p)
{
    TEST_CU(test_cu.mem_free((test_cu_ptr)(uintptr_t)p));
}

/* Copies between device and host memory; they return the driver's code (0: done). */
static inline test_cu_result test_cuda_to_host(void *dst, const void *dev, size_t n)
{
    return test_cu.memcpy_dtoh(dst, (test_cu_ptr)(uintptr_t)dev, n);
}

static inline test_cu_result test_cuda_from_host(void *dev, const void *src, size_t n)
{
    return test_cu.memcpy_htod((test_cu_ptr)(uintptr_t)dev, src, n);
}

#endif
