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
    /* The benchmarks' choice of driver (bench/osu_style_device.h). */
    const char *name = "libcuda.so.1", *env[] = {getenv("AXON_CUDA_LIBRARY"), getenv("OSU_CUDA_LIBRARY")};
    for (int i = 0; i < 2; i++)
        name = env[i] && *env[i] ? env[i] : name;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "gpu_reference: cannot load %s: %s\n", name, dlerror());
        return 77;
    }
    /* POSIX's dlsym hands out functions as object pointers: each is stored through its field's address. */
    const struct {
        const char *name;
        void **slot;
    } syms[] = {
        {"cuInit", (void **)&cu.init},
        {"cuDeviceGet", (void **)&cu.device_get},
        {"cuDevicePrimaryCtxRetain", (void **)&cu.primary_retain},
        {"cuCtxSetCurrent", (void **)&cu.ctx_set_current},
        {"cuMemAlloc_v2", (void **)&cu.mem_alloc},
        {"cuMemHostAlloc", (void **)&cu.mem_host_alloc},
        {"cuMemcpyDtoD_v2", (void **)&cu.dtod},
        {"cuMemcpyHtoD_v2", (void **)&cu.htod},
        {"cuMemcpyDtoH_v2", (void **)&cu.dtoh},
        {"cuMemcpyHtoDAsync_v2", (void **)&cu.htod_async},
        {"cuStreamCreate", (void **)&cu.stream_create},
        {"cuStreamSynchronize", (void **)&cu.stream_sync},
        {"cuCtxSynchronize", (void **)&cu.ctx_sync},
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
        *syms[i].slot = sym(lib, syms[i].name);
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
    for (int way = 0; way < 2; way++) {
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            check(way == 0 ? cu.htod(a, host, pinned) : cu.dtoh(host, a, pinned), way == 0 ? "cuMemcpyHtoD" : "cuMemcpyDtoH");
            t[r] = (double)pinned / (now() - t0) / 1e9;
        }
        printf("%s_GBps %.3f\n", way == 0 ? "htod" : "dtoh", median(t));
    }
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
