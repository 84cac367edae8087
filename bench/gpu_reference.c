/* What the GPU itself does, without MPI: the references the CUDA issue's speed targets are set against
 * (bench/gpu-targets compares Axon's runs with them). One process, the CUDA driver loaded at run time
 * (libcuda.so.1, or the library OSU_CUDA_LIBRARY or AXON_CUDA_LIBRARY names), GPU 0:
 *   dtod_GBps     cuMemcpyDtoD of BYTES (default 64 MiB) within the GPU, bytes copied per second;
 *   htod_GBps     cuMemcpyHtoD of 16 MiB from pinned memory (cuMemHostAlloc);
 *   dtoh_GBps     cuMemcpyDtoH of 16 MiB into pinned memory;
 *   copy8_us      an 8-byte cuMemcpyHtoDAsync on a stream and cuStreamSynchronize, the smallest
 *                 thing a GPU message costs;
 *   ipc_open_us   cuIpcOpenMemHandle of BYTES that another process (a child forked before any CUDA
 *                 call) allocated and exported, the first open (what Axon's IPC cache saves);
 *   ipc_dtod_GBps cuMemcpyDtoD of BYTES from that mapping into this process's memory;
 *   ipc_copy8_us  an 8-byte cuMemcpyDtoD from the mapping and cuCtxSynchronize (what an IPC message
 *                 of a few bytes costs the receiver at least);
 *   ipc_pingpong_us  the same copy made by the two processes in turn, from each other's memory (a pipe
 *                 passes the turn), per copy: what the GPU's switching between the two processes'
 *                 contexts adds to each small IPC message of a ping-pong.
 * Where the platform refuses CUDA IPC the ipc_ lines say so ("ipc_error what code") instead.
 * Each figure is the median of 15 repetitions. Output: one "name value" line each.
 * Usage: gpu_reference [BYTES]   (builds with any C compiler: cc -O2 gpu_reference.c -ldl) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPS 15

/* CUipcMemHandle: 64 bytes, passed by value. */
typedef struct {
    char reserved[64];
} ipc_handle;

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
    int (*ipc_get)(ipc_handle *h, unsigned long long p);
    int (*ipc_open)(unsigned long long *p, ipc_handle h, unsigned flags);
    int (*ipc_close)(unsigned long long p);
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

static void setup(void *lib);

/* The exporting side of the IPC figures, in a child forked before the parent touches CUDA (a process
 * may not use CUDA across fork): it allocates bytes, sends the handle (or a failed call's code) up
 * `up`, and keeps the memory until the parent writes to `down`. */
static void ipc_child(void *lib, size_t bytes, int up, int down)
{
    setup(lib);
    unsigned long long p, mine;
    ipc_handle h;
    int rc = cu.mem_alloc(&p, bytes);
    if (rc == 0)
        rc = cu.ipc_get(&h, p);
    if (write(up, &rc, sizeof(rc)) != sizeof(rc) || (rc == 0 && write(up, &h, sizeof(h)) != sizeof(h)))
        _exit(1);
    /* 'p': the parent's handle follows, then ping-pong turns ('t') until 'x'. */
    char c;
    if (read(down, &c, 1) != 1 || c != 'p')
        _exit(0);
    if (read(down, &h, sizeof(h)) != sizeof(h) || cu.ipc_open(&mine, h, 1) != 0)
        _exit(1);
    while (read(down, &c, 1) == 1 && c == 't') {
        if (cu.dtod(p, mine, 8) != 0 || cu.ctx_sync() != 0 || write(up, "t", 1) != 1)
            _exit(1);
    }
    cu.ipc_close(mine);
    _exit(0);
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
        {"cuIpcGetMemHandle", (void **)&cu.ipc_get},
        {"cuIpcOpenMemHandle_v2", (void **)&cu.ipc_open},
        {"cuIpcCloseMemHandle", (void **)&cu.ipc_close},
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
        *syms[i].slot = sym(lib, syms[i].name);
    int up[2], down[2];
    if (pipe(up) != 0 || pipe(down) != 0) {
        perror("gpu_reference: pipe");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("gpu_reference: fork");
        return 1;
    }
    if (child == 0)
        ipc_child(lib, bytes, up[1], down[0]);
    setup(lib);
    void *stream;
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
    int rc = -1;
    ipc_handle h;
    if (read(up[0], &rc, sizeof(rc)) != sizeof(rc))
        rc = -1;
    if (rc != 0) {
        printf("ipc_error cuIpcGetMemHandle %d\n", rc);
    } else if (read(up[0], &h, sizeof(h)) != sizeof(h)) {
        printf("ipc_error handle 0\n");
    } else {
        unsigned long long m;
        double t0 = now();
        rc = cu.ipc_open(&m, h, 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */);
        double open_us = (now() - t0) * 1e6;
        if (rc != 0) {
            printf("ipc_error cuIpcOpenMemHandle %d\n", rc);
        } else {
            printf("ipc_open_us %.3f\n", open_us);
            check(cu.dtod(b, m, bytes), "cuMemcpyDtoD (IPC)");
            check(cu.ctx_sync(), "cuCtxSynchronize");
            for (int r = 0; r < REPS; r++) {
                t0 = now();
                check(cu.dtod(b, m, bytes), "cuMemcpyDtoD (IPC)");
                check(cu.ctx_sync(), "cuCtxSynchronize");
                t[r] = (double)bytes / (now() - t0) / 1e9;
            }
            printf("ipc_dtod_GBps %.3f\n", median(t));
            for (int r = 0; r < REPS; r++) {
                t0 = now();
                for (int i = 0; i < 100; i++) {
                    check(cu.dtod(b, m, 8), "cuMemcpyDtoD (IPC)");
                    check(cu.ctx_sync(), "cuCtxSynchronize");
                }
                t[r] = (now() - t0) / 100 * 1e6;
            }
            printf("ipc_copy8_us %.3f\n", median(t));
            /* Ping-pong: the two processes copy 8 bytes from each other's memory in turn, as two ranks
             * exchanging small GPU messages through IPC do, each turn a copy in the other context. */
            ipc_handle hb;
            char c;
            int ok = cu.ipc_get(&hb, b) == 0 && write(down[1], "p", 1) == 1 && write(down[1], &hb, sizeof(hb)) == sizeof(hb);
            for (int r = 0; ok && r < REPS; r++) {
                t0 = now();
                for (int i = 0; ok && i < 100; i++)
                    ok = cu.dtod(b, m, 8) == 0 && cu.ctx_sync() == 0 && write(down[1], "t", 1) == 1 && read(up[0], &c, 1) == 1;
                t[r] = (now() - t0) / 200 * 1e6;
            }
            if (ok)
                printf("ipc_pingpong_us %.3f\n", median(t));
            else
                printf("ipc_error pingpong 0\n");
            cu.ipc_close(m);
        }
    }
    if (write(down[1], "x", 1) != 1)
        perror("gpu_reference: write");
    waitpid(child, NULL, 0);
    return 0;
}

/* Makes GPU 0's primary context current. */
static void setup(void *lib)
{
    (void)lib;
    int dev;
    void *ctx;
    check(cu.init(0), "cuInit");
    check(cu.device_get(&dev, 0), "cuDeviceGet");
    check(cu.primary_retain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cu.ctx_set_current(ctx), "cuCtxSetCurrent");
}
