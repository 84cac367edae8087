/* What the GPU itself does, without MPI: the references the CUDA issue's speed targets are set against
 * (bench/gpu-targets compares Axon's runs with them). One process, the CUDA driver loaded at run time
 * (libcuda.so.1, or the library OSU_CUDA_LIBRARY or AXON_CUDA_LIBRARY names), GPU 0:
 *   dtod_GBps     cuMemcpyDtoD of BYTES (default 64 MiB) within the GPU, bytes copied per second;
 *   htod_GBps     cuMemcpyHtoD of 16 MiB from pinned memory (cuMemHostAlloc);
 *   dtoh_GBps     cuMemcpyDtoH of 16 MiB into pinned memory;
 *   copy8_us      an 8-byte cuMemcpyHtoDAsync on a stream and cuStreamSynchronize, the smallest
 *                 thing a GPU message costs.
 * Each figure is the median of 15 repetitions. Output: one "name value" line each.
 * Usage: gpu_reference [BYTES]   (builds with any C compiler: cc -O2 gpu_reference.c -ldl) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 15

/* cuda.h's ABI spelled out: CUresult int, CUdevice int, CUdeviceptr 64 bits, handles pointers. */
static struct {
    int (*init)(unsigned);
    int (*device_get)(int *, int);
    int (*primary_retain)(void **, int);
    int (*ctx_set_current)(void *);
    int (*mem_alloc)(unsigned long long *, size_t);
    int (*mem_host_alloc)(void **, size_t, unsigned);
    int (*dtod)(unsigned long long, unsigned long long, size_t);
    int (*htod)(unsigned long long, const void *, size_t);
    int (*dtoh)(void *, unsigned long long, size_t);
    int (*htod_async)(unsigned long long, const void *, size_t, void *);
    int (*stream_create)(void **, unsigned);
    int (*stream_sync)(void *);
    int (*ctx_sync)(void);
} cu;

static void *sym(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "gpu_reference: the driver has no %s\n", name);
        exit(1);
    }
    return p;
}

static void check(int rc, const char *what)
{
    if (rc != 0) {
        fprintf(stderr, "gpu_reference: %s failed (CUDA error %d)\n", what, rc);
        exit(1);
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v)
{
    qsort(v, REPS, sizeof(*v), cmp);
    return v[REPS / 2];
}

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)64 << 20;
    const size_t pinned = (size_t)16 << 20;
    const char *name = getenv("OSU_CUDA_LIBRARY");
    if (!name || !*name)
        name = getenv("AXON_CUDA_LIBRARY");
    if (!name || !*name)
        name = "libcuda.so.1";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "gpu_reference: cannot load %s: %s\n", name, dlerror());
        return 77;
    }
    cu.init = sym(lib, "cuInit");
    cu.device_get = sym(lib, "cuDeviceGet");
    cu.primary_retain = sym(lib, "cuDevicePrimaryCtxRetain");
    cu.ctx_set_current = sym(lib, "cuCtxSetCurrent");
    cu.mem_alloc = sym(lib, "cuMemAlloc_v2");
    cu.mem_host_alloc = sym(lib, "cuMemHostAlloc");
    cu.dtod = sym(lib, "cuMemcpyDtoD_v2");
    cu.htod = sym(lib, "cuMemcpyHtoD_v2");
    cu.dtoh = sym(lib, "cuMemcpyDtoH_v2");
    cu.htod_async = sym(lib, "cuMemcpyHtoDAsync_v2");
    cu.stream_create = sym(lib, "cuStreamCreate");
    cu.stream_sync = sym(lib, "cuStreamSynchronize");
    cu.ctx_sync = sym(lib, "cuCtxSynchronize");
    int dev;
    void *ctx, *stream;
    check(cu.init(0), "cuInit");
    check(cu.device_get(&dev, 0), "cuDeviceGet");
    check(cu.primary_retain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cu.ctx_set_current(ctx), "cuCtxSetCurrent");
    check(cu.stream_create(&stream, 1 /* non-blocking */), "cuStreamCreate");
    unsigned long long a, b;
    void *host;
    size_t room = bytes > pinned ? bytes : pinned;
    check(cu.mem_alloc(&a, room), "cuMemAlloc");
    check(cu.mem_alloc(&b, room), "cuMemAlloc");
    check(cu.mem_host_alloc(&host, pinned, 0), "cuMemHostAlloc");
    memset(host, 1, pinned);
    double t[REPS];
    /* A warm-up of each, then the repetitions. */
    check(cu.dtod(b, a, bytes), "cuMemcpyDtoD");
    check(cu.ctx_sync(), "cuCtxSynchronize");
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        check(cu.dtod(b, a, bytes), "cuMemcpyDtoD");
        check(cu.ctx_sync(), "cuCtxSynchronize");
        t[r] = (double)bytes / (now() - t0) / 1e9;
    }
    printf("dtod_GBps %.3f\n", median(t));
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        check(cu.htod(a, host, pinned), "cuMemcpyHtoD");
        t[r] = (double)pinned / (now() - t0) / 1e9;
    }
    printf("htod_GBps %.3f\n", median(t));
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        check(cu.dtoh(host, a, pinned), "cuMemcpyDtoH");
        t[r] = (double)pinned / (now() - t0) / 1e9;
    }
    printf("dtoh_GBps %.3f\n", median(t));
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int i = 0; i < 100; i++) {
            check(cu.htod_async(b, host, 8, stream), "cuMemcpyHtoDAsync");
            check(cu.stream_sync(stream), "cuStreamSynchronize");
        }
        t[r] = (now() - t0) / 100 * 1e6;
    }
    printf("copy8_us %.3f\n", median(t));
    return 0;
}
