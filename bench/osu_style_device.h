/* Where the osu_style_*.c programs keep their buffers: host memory, or with -d cuda GPU memory, as OSU's
 * -d cuda does. The CUDA driver is loaded at run time (dlopen of libcuda.so.1, or of the library that
 * OSU_CUDA_LIBRARY or AXON_CUDA_LIBRARY names: Axon's tests point that at their fake driver), so the
 * programs still build from their one .c file with any MPI's wrapper and without CUDA; -d cuda on a
 * machine without a driver or GPU is an error. Each rank takes the GPU of its local rank (the launcher's
 * OMPI_COMM_WORLD_LOCAL_RANK or MPI_LOCALRANKID), modulo the GPUs it sees, and makes its primary
 * context current, as a program using the CUDA runtime would. */
#ifndef OSU_STYLE_DEVICE_H
#define OSU_STYLE_DEVICE_H

#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum osu_memory { OSU_MEMORY_HOST, OSU_MEMORY_CUDA };

/* The driver calls used, with cuda.h's ABI spelled out (CUresult, CUdevice int; CUdeviceptr 64 bits). */
static struct {
    int ready;
    int (*mem_alloc)(unsigned long long *p, size_t bytes);
    int (*mem_free)(unsigned long long p);
    int (*memcpy_htod)(unsigned long long dst, const void *src, size_t bytes);
    int (*memset_d8)(unsigned long long dst, unsigned char value, size_t n);
} osu_cuda;

/* "host" or "cuda"; 0 when the text is neither. */
static inline int osu_parse_memory(const char *arg, enum osu_memory *m)
{
    if (strcmp(arg, "cuda") == 0)
        *m = OSU_MEMORY_CUDA;
    else if (strcmp(arg, "host") == 0)
        *m = OSU_MEMORY_HOST;
    else
        return 0;
    return 1;
}

static inline void osu_cuda_fail(const char *what, int rc)
{
    fprintf(stderr, "-d cuda: %s failed (CUDA error %d)\n", what, rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Loads the driver and makes this rank's GPU current, once. */
static inline void osu_cuda_setup(void)
{
    if (osu_cuda.ready)
        return;
    const char *name = getenv("OSU_CUDA_LIBRARY");
    if (!name || !*name)
        name = getenv("AXON_CUDA_LIBRARY");
    if (!name || !*name)
        name = "libcuda.so.1";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "-d cuda: cannot load the CUDA driver %s: %s\n", name, dlerror());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(lib, "cuInit");
    int (*count)(int *) = (int (*)(int *))dlsym(lib, "cuDeviceGetCount");
    int (*get)(int *, int) = (int (*)(int *, int))dlsym(lib, "cuDeviceGet");
    int (*retain)(void **, int) = (int (*)(void **, int))dlsym(lib, "cuDevicePrimaryCtxRetain");
    int (*set)(void *) = (int (*)(void *))dlsym(lib, "cuCtxSetCurrent");
    osu_cuda.mem_alloc = (int (*)(unsigned long long *, size_t))dlsym(lib, "cuMemAlloc_v2");
    osu_cuda.mem_free = (int (*)(unsigned long long))dlsym(lib, "cuMemFree_v2");
    osu_cuda.memcpy_htod = (int (*)(unsigned long long, const void *, size_t))dlsym(lib, "cuMemcpyHtoD_v2");
    osu_cuda.memset_d8 = (int (*)(unsigned long long, unsigned char, size_t))dlsym(lib, "cuMemsetD8_v2");
    if (!init || !count || !get || !retain || !set || !osu_cuda.mem_alloc || !osu_cuda.mem_free ||
        !osu_cuda.memcpy_htod || !osu_cuda.memset_d8) {
        fprintf(stderr, "-d cuda: %s lacks a driver call this program needs\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int rc, n = 0, dev;
    void *ctx;
    if ((rc = init(0)) != 0)
        osu_cuda_fail("cuInit", rc);
    if ((rc = count(&n)) != 0 || n < 1) {
        fprintf(stderr, "-d cuda: no GPU\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    if (!local)
        local = getenv("MPI_LOCALRANKID");
    int ordinal = local ? atoi(local) % n : 0;
    if ((rc = get(&dev, ordinal)) != 0)
        osu_cuda_fail("cuDeviceGet", rc);
    if ((rc = retain(&ctx, dev)) != 0)
        osu_cuda_fail("cuDevicePrimaryCtxRetain", rc);
    if ((rc = set(ctx)) != 0)
        osu_cuda_fail("cuCtxSetCurrent", rc);
    osu_cuda.ready = 1;
}

/* bytes of memory of kind m, page-aligned on the host; NULL when out of memory. */
static inline void *osu_buffer_alloc(enum osu_memory m, size_t bytes)
{
    if (m == OSU_MEMORY_HOST) {
        void *p = NULL;
        return posix_memalign(&p, 4096, bytes) ? NULL : p;
    }
    osu_cuda_setup();
    unsigned long long p = 0;
    return osu_cuda.mem_alloc(&p, bytes) ? NULL : (void *)(uintptr_t)p;
}

/* Sets every byte to value. */
static inline void osu_buffer_set(enum osu_memory m, void *p, unsigned char value, size_t bytes)
{
    int rc;
    if (m == OSU_MEMORY_HOST)
        memset(p, value, bytes);
    else if ((rc = osu_cuda.memset_d8((unsigned long long)(uintptr_t)p, value, bytes)) != 0)
        osu_cuda_fail("cuMemsetD8", rc);
}

/* Copies bytes from host memory in. */
static inline void osu_buffer_write(enum osu_memory m, void *p, const void *host, size_t bytes)
{
    int rc;
    if (m == OSU_MEMORY_HOST)
        memcpy(p, host, bytes);
    else if ((rc = osu_cuda.memcpy_htod((unsigned long long)(uintptr_t)p, host, bytes)) != 0)
        osu_cuda_fail("cuMemcpyHtoD", rc);
}

static inline void osu_buffer_free(enum osu_memory m, void *p)
{
    if (m == OSU_MEMORY_HOST)
        free(p);
    else if (p)
        osu_cuda.mem_free((unsigned long long)(uintptr_t)p);
}

#endif
