/* The fake CUDA driver's own test: that it behaves as the tests built on it assume. Linked against the
 * fake (so cuda.h checks the prototype of every call), it checks: nothing works before cuInit, and
 * nothing that needs a context works before one is current (in this thread: another thread starts
 * with none); cuGetProcAddress hands out the exported functions; device memory really faults when the
 * CPU touches it (a forked child that reads or writes it dies of SIGSEGV), also after copies; copies,
 * memsets and their counts; managed, pinned and registered memory and unknown pointers through the
 * pointer attributes; buffer ids that change on reallocation; a context's last release frees its
 * memory; and IPC: a handle opened in another process (this program run again) sees the bytes, and
 * what it writes is seen here. VMM: reservations, physical allocations mapped side by side, access,
 * the attributes of mappings and of reserved addresses, copies across mappings, and an allocation's
 * exported POSIX fd taken by another process (pidfd_getfd), imported, mapped, read and written.
 *
 * Run by tests/fakecuda/fakecuda.test (with FAKECUDA_DEVICES=2). "ipc-child HANDLE" or "ipc-gone HANDLE"
 * as arguments make it the other process of the IPC test, "vmm-child PID FD" that of the VMM one. */
#include <cuda.h>

#include "tests/fakecuda/fakecuda.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

#define CHECK(cond)                                                                                  \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            printf("FAILED: %s (line %d)\n", #cond, __LINE__);                                       \
            failures++;                                                                              \
        }                                                                                            \
    } while (0)

/* A call that must succeed for the test to go on. */
#define CU(call)                                                                                     \
    do {                                                                                             \
        CUresult rc_ = (call);                                                                       \
        if (rc_ != CUDA_SUCCESS) {                                                                   \
            printf("FAILED: %s returned %d (line %d)\n", #call, (int)rc_, __LINE__);                 \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

/* How a forked child that touches p ends: the signal that killed it, or 0 when it survived. */
static int touch_in_child(void *p, bool write)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        if (write)
            *(volatile char *)p = 1;
        else
            (void)*(volatile char *)p;
        _exit(0);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static unsigned long long buffer_id(CUdeviceptr p)
{
    unsigned long long id = 0;
    CU(cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p));
    return id;
}

static void fill(unsigned char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(seed + i * 7);
}

static bool filled(const unsigned char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != (unsigned char)(seed + i * 7))
            return false;
    return true;
}

static CUresult thread_alloc_rc, thread_alloc_pushed_rc;
static CUcontext thread_ctx_seen = (CUcontext)1, primary0;

static void *other_thread(void *arg)
{
    (void)arg;
    CUdeviceptr p;
    cuCtxGetCurrent(&thread_ctx_seen);
    thread_alloc_rc = cuMemAlloc(&p, 64);
    cuCtxPushCurrent(primary0);
    thread_alloc_pushed_rc = cuMemAlloc(&p, 64);
    if (thread_alloc_pushed_rc == CUDA_SUCCESS)
        cuMemFree(p);
    CUcontext popped;
    cuCtxPopCurrent(&popped);
    return NULL;
}

/* ---- the other process of the IPC test ----------------------------------------------------------- */

#define IPC_BYTES 10000

/* Opens the handle in hex and checks what it sees; gone: the exporter freed the memory, and the open
 * must fail. */
static int ipc_child(const char *hex, bool gone)
{
    CUipcMemHandle handle;
    memset(&handle, 0, sizeof(handle));
    for (size_t i = 0; i < sizeof(handle.reserved); i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return 2;
        handle.reserved[i] = (char)v;
    }
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr p, q;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    /* No context yet: opening needs one, as on a real driver. */
    CHECK(cuIpcOpenMemHandle(&p, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) == CUDA_ERROR_INVALID_CONTEXT);
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    if (gone) {
        CHECK(cuIpcOpenMemHandle(&p, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) == CUDA_ERROR_INVALID_HANDLE);
        return failures ? 1 : 0;
    }
    CU(cuIpcOpenMemHandle(&p, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    /* Opened again in the same context: the same mapping, one more reference. */
    CU(cuIpcOpenMemHandle(&q, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    CHECK(p == q);
    unsigned int type = 0;
    int legacy = 1;
    CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
    CU(cuPointerGetAttribute(&legacy, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, p));
    CHECK(type == CU_MEMORYTYPE_DEVICE);
    CHECK(legacy == 0);
    CUdeviceptr base;
    size_t size;
    CU(cuMemGetAddressRange(&base, &size, p + 100));
    CHECK(base == p && size == IPC_BYTES);
    CHECK(touch_in_child((void *)(uintptr_t)p, false) == SIGSEGV);
    static unsigned char buf[IPC_BYTES];
    CU(cuMemcpyDtoH(buf, p, IPC_BYTES));
    CHECK(filled(buf, IPC_BYTES, 11));
    fill(buf, IPC_BYTES, 99);
    CU(cuMemcpyHtoD(p, buf, IPC_BYTES));
    CU(cuCtxSynchronize()); /* lands before the parent looks (FAKECUDA_LATE_HTOD holds it back) */
    CU(cuIpcCloseMemHandle(p));
    CU(cuIpcCloseMemHandle(p));
    CHECK(cuIpcCloseMemHandle(p) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p) == CUDA_ERROR_INVALID_VALUE);
    return failures ? 1 : 0;
}

/* Runs this program again as "ipc-child HANDLE" (or "ipc-gone HANDLE"); its exit code (-1 if it did
 * not exit). */
static int run_ipc_child(const CUipcMemHandle *handle, bool gone)
{
    char hex[2 * sizeof(handle->reserved) + 1];
    for (size_t i = 0; i < sizeof(handle->reserved); i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)handle->reserved[i]);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "test_fakecuda", gone ? "ipc-gone" : "ipc-child", hex, (char *)NULL);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- VMM ------------------------------------------------------------------------------------------- */

#define VMM_GRAN ((size_t)2 << 20)

static CUmemAllocationProp vmm_prop(int device, bool fd)
{
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = fd ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_NONE;
    return prop;
}

static CUresult vmm_access(CUdeviceptr p, size_t n, int device)
{
    CUmemAccessDesc a;
    memset(&a, 0, sizeof(a));
    a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.location.id = device;
    a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return cuMemSetAccess(p, n, &a, 1);
}

/* The other process of the VMM test: takes fd from process pid, imports and maps it, checks the bytes
 * (seed 21) and writes its own (seed 77). */
static int vmm_child(int pid, int fd)
{
    CUdevice dev;
    CUcontext ctx;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    int mine = pidfd >= 0 ? (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0) : -1;
    if (mine < 0) {
        printf("pidfd_getfd: %s: the cross-process VMM check is skipped\n", strerror(errno));
        return 77;
    }
    close(pidfd);
    CUmemGenericAllocationHandle h;
    CU(cuMemImportFromShareableHandle(&h, (void *)(intptr_t)mine, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(mine); /* the import keeps the memory */
    CUmemAllocationProp prop;
    CU(cuMemGetAllocationPropertiesFromHandle(&prop, h));
    CHECK(prop.requestedHandleTypes == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CUdeviceptr va;
    CU(cuMemAddressReserve(&va, VMM_GRAN, 0, 0, 0));
    CU(cuMemMap(va, VMM_GRAN, 0, h, 0));
    CU(cuMemRelease(h)); /* the mapping keeps it */
    static unsigned char buf[VMM_GRAN];
    CHECK(cuMemcpyDtoH(buf, va, VMM_GRAN) == CUDA_ERROR_ILLEGAL_ADDRESS); /* no access yet */
    CU(vmm_access(va, VMM_GRAN, 0));
    CU(cuMemcpyDtoH(buf, va, VMM_GRAN));
    CHECK(filled(buf, VMM_GRAN, 21));
    fill(buf, VMM_GRAN, 77);
    CU(cuMemcpyHtoD(va, buf, VMM_GRAN));
    CU(cuCtxSynchronize()); /* lands before the parent looks */
    CU(cuMemUnmap(va, VMM_GRAN));
    CU(cuMemAddressFree(va, VMM_GRAN));
    return failures ? 1 : 0;
}

static int run_vmm_child(int fd)
{
    char pid[16], fds[16];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    snprintf(fds, sizeof(fds), "%d", fd);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        execl("/proc/self/exe", "test_fakecuda", "vmm-child", pid, fds, (char *)NULL);
        _exit(127);
    }
    int status;
    if (child < 0 || waitpid(child, &status, 0) != child)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_vmm(void)
{
    CUmemAllocationProp prop = vmm_prop(0, true), plain = vmm_prop(0, false);
    size_t gran = 0;
    CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CHECK(gran == VMM_GRAN);
    CUmemGenericAllocationHandle h[3], nofd;
    CHECK(cuMemCreate(&nofd, gran + 1, &prop, 0) == CUDA_ERROR_INVALID_VALUE);
    for (int i = 0; i < 3; i++)
        CU(cuMemCreate(&h[i], gran, &prop, 0));
    CU(cuMemCreate(&nofd, gran, &plain, 0));
    /* Three allocations side by side in a reservation of four granules; the last stays unmapped. */
    CUdeviceptr base;
    CU(cuMemAddressReserve(&base, 4 * gran, 0, 0, 0));
    CHECK(base % gran == 0);
    for (int i = 0; i < 3; i++)
        CU(cuMemMap(base + i * gran, gran, 0, h[i], 0));
    CHECK(cuMemMap(base + gran, gran, 0, nofd, 0) == CUDA_ERROR_ALREADY_MAPPED);
    static unsigned char buf[3 * VMM_GRAN];
    fill(buf, sizeof(buf), 21);
    CHECK(cuMemcpyHtoD(base, buf, sizeof(buf)) == CUDA_ERROR_ILLEGAL_ADDRESS); /* no access granted */
    CHECK(vmm_access(base, 4 * gran, 0) == CUDA_ERROR_INVALID_VALUE);          /* not all mapped */
    CU(vmm_access(base, 3 * gran, 0));
    /* One copy across the three mappings, as a GPU reads contiguous addresses. */
    CU(cuMemcpyHtoD(base, buf, sizeof(buf)));
    memset(buf, 0, sizeof(buf));
    CU(cuMemcpyDtoH(buf, base, sizeof(buf)));
    CHECK(filled(buf, sizeof(buf), 21));
    CHECK(cuMemcpyDtoH(buf, base + 2 * gran, gran + 1) == CUDA_ERROR_INVALID_VALUE); /* into the hole */
    CHECK(touch_in_child((void *)(uintptr_t)(base + gran), false) == SIGSEGV);

    /* Attributes: the range is the reservation, the mapping the one allocation, block ids per
     * allocation, the buffer id the reservation's. */
    CUdeviceptr p = base + gran + 5, start = 0, mbase = 0;
    size_t rsize = 0, msize = 0;
    unsigned int type = 0;
    int legacy = 1, mapped = 0;
    unsigned long long block0 = 0, block1 = 0, types = 0;
    CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
    CU(cuPointerGetAttribute(&legacy, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, p));
    CU(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p));
    CU(cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p));
    CU(cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, p));
    CU(cuPointerGetAttribute(&types, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, p));
    CU(cuPointerGetAttribute(&mbase, (CUpointer_attribute)19 /* MAPPING_BASE_ADDR */, p));
    CU(cuPointerGetAttribute(&msize, (CUpointer_attribute)18 /* MAPPING_SIZE */, p));
    CU(cuPointerGetAttribute(&block1, (CUpointer_attribute)20 /* MEMORY_BLOCK_ID */, p));
    CU(cuPointerGetAttribute(&block0, (CUpointer_attribute)20, base));
    CHECK(type == CU_MEMORYTYPE_DEVICE && legacy == 0 && mapped == 1);
    CHECK(start == base && rsize == 4 * gran);
    CHECK(mbase == base + gran && msize == gran);
    CHECK(block0 == h[0] && block1 == h[1]);
    CHECK(types == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CHECK(buffer_id(base) == buffer_id(p));
    CUdeviceptr ab;
    size_t as;
    CU(cuMemGetAddressRange(&ab, &as, p));
    CHECK(ab == base + gran && as == gran);
    /* Reserved, not mapped: device memory, not MAPPED (the plural call); unknown to the single one. */
    unsigned int htype = 0;
    int hmapped = 1;
    CUpointer_attribute hattrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_MAPPED};
    void *hdata[] = {&htype, &hmapped};
    CU(cuPointerGetAttributes(2, hattrs, hdata, base + 3 * gran));
    CHECK(htype == CU_MEMORYTYPE_DEVICE && hmapped == 0);
    CHECK(cuMemGetAddressRange(&ab, &as, base + 3 * gran) == CUDA_ERROR_NOT_FOUND);
    CUmemGenericAllocationHandle r;
    CHECK(cuMemRetainAllocationHandle(&r, (void *)(uintptr_t)(base + 3 * gran)) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemRetainAllocationHandle(&r, (void *)(uintptr_t)p));
    CHECK(r == h[1]);
    CU(cuMemRelease(r));

    /* Export: a POSIX fd only where cuMemCreate asked for one; another process maps it and writes. */
    int fd = -1;
    CHECK(cuMemExportToShareableHandle(&fd, nofd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) ==
          CUDA_ERROR_NOT_PERMITTED);
    CU(cuMemExportToShareableHandle(&fd, h[1], CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    int child = run_vmm_child(fd);
    CHECK(child == 0 || child == 77);
    if (child == 0) {
        CU(cuMemcpyDtoH(buf, base + gran, gran));
        CHECK(filled(buf, gran, 77));
    }
    close(fd);

    /* Unmapping takes whole mappings; the reservation goes once nothing is mapped in it. */
    CHECK(cuMemUnmap(base + gran, gran / 2) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemAddressFree(base, 4 * gran) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemUnmap(base + gran, gran));
    CHECK(cuMemRetainAllocationHandle(&r, (void *)(uintptr_t)p) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemcpyDtoH(buf, base, 2 * gran) == CUDA_ERROR_INVALID_VALUE); /* a hole in the middle now */
    /* Re-mapped at the same address: the same buffer id, a new block id, and no access until granted. */
    unsigned long long before = buffer_id(base);
    CU(cuMemMap(base + gran, gran, 0, nofd, 0));
    CU(cuPointerGetAttribute(&block1, (CUpointer_attribute)20, base + gran));
    CHECK(block1 == nofd && buffer_id(base + gran) == before);
    CHECK(cuMemcpyDtoH(buf, base + gran, 16) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CU(cuMemUnmap(base, 3 * gran));
    for (int i = 0; i < 3; i++)
        CU(cuMemRelease(h[i]));
    CU(cuMemRelease(nofd));
    CHECK(cuMemRelease(nofd) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemAddressFree(base, 4 * gran));
}

/* ---- the tests ------------------------------------------------------------------------------------ */

/* Modules and kernels: a fatbin (here a header and a string table) names the kernels it holds; the fake
 * runs those it knows on memory a GPU could reach, in the module's context. */
static void test_kernels(void)
{
    static const unsigned char image[64] __attribute__((aligned(16))) =
        "\x50\xed\x55\xba\x01\x00\x10\x00\x30\x00\x00\x00\x00\x00\x00\x00"
        "\0axon_reduce_sum_f32\0axon_reduce_nope\0";
    CUmodule mod;
    CUfunction fn;
    static const unsigned char junk[32] = "not a fatbin";
    CHECK(cuModuleLoadData(&mod, junk) == CUDA_ERROR_INVALID_IMAGE);
    CU(cuModuleLoadData(&mod, image));
    CHECK(cuModuleGetFunction(&fn, mod, "axon_reduce_sum_f64") == CUDA_ERROR_NOT_FOUND); /* not in the image */
    CHECK(cuModuleGetFunction(&fn, mod, "axon_reduce_nope") == CUDA_ERROR_NOT_FOUND);    /* not runnable */
    CHECK(cuModuleGetFunction(&fn, mod, "axon_reduce_sum") == CUDA_ERROR_NOT_FOUND);     /* a prefix */
    CU(cuModuleGetFunction(&fn, mod, "axon_reduce_sum_f32"));
    float a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
    CUdeviceptr da, db;
    CU(cuMemAlloc(&da, sizeof(a)));
    CU(cuMemAlloc(&db, sizeof(b)));
    CU(cuMemcpyHtoD(da, a, sizeof(a)));
    CU(cuMemcpyHtoD(db, b, sizeof(b)));
    unsigned long long n = 5;
    void *params[] = {&da, &db, &n};
    CU(cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, CU_STREAM_LEGACY, params, NULL));
    CU(cuMemcpyDtoH(b, db, sizeof(b)));
    CHECK(b[0] == 11 && b[4] == 55);
    CHECK(cuLaunchKernel(fn, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL) == CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr host = (CUdeviceptr)(uintptr_t)a; /* pageable host memory: out of the GPU's reach */
    void *bad[] = {&host, &db, &n};
    CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, bad, NULL) == CUDA_ERROR_ILLEGAL_ADDRESS);
    n = 6; /* one past the allocation */
    CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CU(cuMemFree(da));
    CU(cuMemFree(db));
    CU(cuModuleUnload(mod));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 4 && strcmp(argv[1], "vmm-child") == 0)
        return vmm_child(atoi(argv[2]), atoi(argv[3]));
    if (argc == 3 && (strcmp(argv[1], "ipc-child") == 0 || strcmp(argv[1], "ipc-gone") == 0))
        return ipc_child(argv[2], strcmp(argv[1], "ipc-gone") == 0);
    const char *ndev_env = getenv("FAKECUDA_DEVICES");
    int want_devices = ndev_env && *ndev_env ? atoi(ndev_env) : 1;

    /* Before cuInit. */
    CUcontext ctx;
    CUdeviceptr d;
    int version = 0, count = 0;
    CHECK(cuCtxGetCurrent(&ctx) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuMemAlloc(&d, 16) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED);
    CU(cuDriverGetVersion(&version));
    CHECK(version == 12080);
    const char *s = NULL;
    CU(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s));
    CHECK(s && strcmp(s, "invalid argument") == 0);
    CHECK(cuGetErrorString((CUresult)123456, &s) == CUDA_ERROR_INVALID_VALUE && s == NULL);
    CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);

    /* Devices. */
    CU(cuInit(0));
    CU(cuDeviceGetCount(&count));
    CHECK(count == want_devices);
    CUdevice dev0, dev;
    CU(cuDeviceGet(&dev0, 0));
    CHECK(cuDeviceGet(&dev, count) == CUDA_ERROR_INVALID_DEVICE);
    char name[64];
    CU(cuDeviceGetName(name, sizeof(name), dev0));
    CHECK(strcmp(name, "Axon fake GPU") == 0);
    int value = 0;
    CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev0));
    CHECK(value == 1);
    CU(cuDeviceCanAccessPeer(&value, dev0, dev0));
    CHECK(value == 0);
    if (count > 1) {
        CU(cuDeviceGet(&dev, 1));
        CU(cuDeviceCanAccessPeer(&value, dev0, dev));
        CHECK(value == 1);
    }

    /* cuGetProcAddress: the exported variants, by base name; unknown names and too old an ABI refused. */
    void *fn = NULL;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CU(cuGetProcAddress("cuMemAlloc", &fn, 12000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status));
    CHECK(status == CU_GET_PROC_ADDRESS_SUCCESS && fn == (void *)cuMemAlloc_v2);
    CU(cuGetProcAddress("cuDevicePrimaryCtxRelease", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
    CHECK(fn == (void *)cuDevicePrimaryCtxRelease_v2);
    CHECK(cuGetProcAddress("cuNoSuchFunction", &fn, 12000, 0, &status) == CUDA_ERROR_NOT_FOUND);
    CHECK(status == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND && fn == NULL);
    CHECK(cuGetProcAddress("cuMemRetainAllocationHandle", &fn, 10000, 0, &status) == CUDA_ERROR_NOT_FOUND);
    CHECK(status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    CHECK(cuGetProcAddress("cuInit", &fn, 12000, 4, &status) == CUDA_ERROR_INVALID_VALUE);

    /* No context until the program makes one: nothing that needs one works. */
    unsigned int flags = 1;
    int active = 1;
    CU(cuCtxGetCurrent(&ctx));
    CHECK(ctx == NULL);
    CU(cuDevicePrimaryCtxGetState(dev0, &flags, &active));
    CHECK(active == 0);
    CHECK(cuMemAlloc(&d, 16) == CUDA_ERROR_INVALID_CONTEXT);
    char host[16] = "0123456789abcde";
    CHECK(cuMemcpy((CUdeviceptr)host, (CUdeviceptr)host + 8, 4) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuStreamSynchronize(CU_STREAM_LEGACY) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxPopCurrent(&ctx) == CUDA_ERROR_INVALID_CONTEXT);

    CU(cuDevicePrimaryCtxRetain(&primary0, dev0));
    CU(cuDevicePrimaryCtxGetState(dev0, &flags, &active));
    CHECK(active == 1);
    CU(cuCtxGetCurrent(&ctx));
    CHECK(ctx == NULL); /* retained is not current */
    CU(cuCtxSetCurrent(primary0));
    CU(cuCtxGetCurrent(&ctx));
    CHECK(ctx == primary0);
    CHECK(cuCtxSetCurrent((CUcontext)&failures) == CUDA_ERROR_INVALID_CONTEXT);
    CU(cuCtxGetDevice(&dev));
    CHECK(dev == dev0);

    /* Another thread starts without a context. */
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);
    CHECK(thread_ctx_seen == NULL);
    CHECK(thread_alloc_rc == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(thread_alloc_pushed_rc == CUDA_SUCCESS);

    /* Device memory: what the driver says of it, and the CPU cannot touch it. */
    const size_t n = 1000;
    CU(cuMemAlloc(&d, n));
    CHECK(cuMemAlloc(&d, 0) == CUDA_ERROR_INVALID_VALUE);
    unsigned int type = 0;
    int managed = 1, legacy = 0, ordinal = -1, mapped = 0;
    CUdeviceptr start = 0;
    size_t size = 0;
    unsigned long long id = 0;
    CUcontext owner = NULL;
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                   CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
                                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                   CU_POINTER_ATTRIBUTE_RANGE_SIZE, CU_POINTER_ATTRIBUTE_BUFFER_ID,
                                   CU_POINTER_ATTRIBUTE_MAPPED, CU_POINTER_ATTRIBUTE_CONTEXT};
    void *data[] = {&type, &managed, &legacy, &ordinal, &start, &size, &id, &mapped, &owner};
    CU(cuPointerGetAttributes(9, attrs, data, d + 10));
    CHECK(type == CU_MEMORYTYPE_DEVICE && managed == 0 && legacy == 1 && ordinal == 0 && mapped == 1);
    CHECK(start == d && size == n && id == buffer_id(d) && id != 0 && owner == primary0);
    CUmemGenericAllocationHandle vmm;
    CHECK(cuMemRetainAllocationHandle(&vmm, (void *)(uintptr_t)d) == CUDA_ERROR_INVALID_VALUE);
    void *hostp;
    CHECK(cuPointerGetAttribute(&hostp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d) == CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr base;
    CU(cuMemGetAddressRange(&base, &size, d + 999));
    CHECK(base == d && size == n);
    /* One past the end is not the allocation's. */
    CHECK(cuMemGetAddressRange(&base, &size, d + n) == CUDA_ERROR_NOT_FOUND);
    CHECK(touch_in_child((void *)(uintptr_t)d, false) == SIGSEGV);
    CHECK(touch_in_child((void *)(uintptr_t)(d + 999), true) == SIGSEGV);

    /* Unknown (host) memory: the single attribute refused, the plural one null values and success. */
    static char heap_like[256];
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)heap_like) ==
          CUDA_ERROR_INVALID_VALUE);
    type = 7, id = 7, ordinal = 7;
    CU(cuPointerGetAttributes(9, attrs, data, (CUdeviceptr)heap_like));
    CHECK(type == 0 && id == 0 && ordinal == -2 && mapped == 0 && owner == NULL);

    /* Copies and memsets, counted by direction. */
    fakecuda_reset_stats();
    unsigned char in[1000], out[1000];
    fill(in, n, 3);
    CU(cuMemcpyHtoD(d, in, n));
    memset(out, 0, n);
    CU(cuMemcpyDtoH(out, d, n));
    CHECK(memcmp(in, out, n) == 0);
    CHECK(touch_in_child((void *)(uintptr_t)d, false) == SIGSEGV); /* closed again after the copies */
    CUdeviceptr d2;
    CU(cuMemAlloc(&d2, 2 * n));
    CU(cuMemcpyDtoD(d2 + n, d, n));
    CU(cuMemsetD8(d2, 0xab, n));
    CU(cuMemcpy((CUdeviceptr)out, d2 + n, n)); /* unified: the fake sees the direction */
    CHECK(memcmp(in, out, n) == 0);
    CU(cuMemcpyDtoH(out, d2, 10));
    CHECK(out[0] == 0xab && out[9] == 0xab);
    CU(cuMemcpyAsync(d2, (CUdeviceptr)in, 16, CU_STREAM_LEGACY));
    CU(cuStreamSynchronize(CU_STREAM_LEGACY));
    CUstream stream;
    CU(cuStreamCreate(&stream, 0));
    CU(cuMemcpyDtoHAsync(out, d2, 16, stream));
    CU(cuStreamSynchronize(stream));
    CU(cuStreamDestroy(stream));
    CHECK(cuStreamSynchronize(stream) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(memcmp(in, out, 16) == 0);
    CHECK(cuMemcpyHtoD(d, in, n + 1) == CUDA_ERROR_INVALID_VALUE);              /* past the end */
    CHECK(cuMemcpyHtoD((CUdeviceptr)out, in, 8) == CUDA_ERROR_INVALID_VALUE);    /* not device memory */
    CHECK(cuMemcpyDtoH(out, (CUdeviceptr)in, 8) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemsetD8((CUdeviceptr)out, 0, 8) == CUDA_ERROR_INVALID_VALUE);
    struct fakecuda_copy_stats st;
    fakecuda_copy_stats(&st);
    CHECK(st.htod == 2 && st.bytes_htod == n + 16);
    CHECK(st.dtoh == 4 && st.bytes_dtoh == n + n + 10 + 16);
    CHECK(st.dtod == 1 && st.bytes_dtod == n && st.htoh == 0);
    CHECK(fakecuda_calls("cuMemcpyHtoD") == 3 && fakecuda_calls("cuMemcpyHtoD_v2") == 3);
    CHECK(fakecuda_calls("cuMemsetD8") == 2);
    CHECK(fakecuda_calls(NULL) > 10);

    /* A freed address answers nothing; ids never repeat, also where the address comes back. */
    unsigned long long old_id = buffer_id(d);
    CUdeviceptr old = d;
    CU(cuMemFree(d));
    CHECK(cuMemFree(d) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, old) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemAlloc(&d, n));
    CHECK(buffer_id(d) > old_id);
    if (d == old)
        printf("reallocation came back at the same address with a new id\n");
    CHECK(cuMemFree(d + 1) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemFree(d));

    /* Managed memory: the CPU may touch it; device memory by type, managed by the flag. */
    CUdeviceptr m;
    CHECK(cuMemAllocManaged(&m, n, 0) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
    CU(cuPointerGetAttributes(9, attrs, data, m));
    CHECK(type == CU_MEMORYTYPE_DEVICE && managed == 1 && legacy == 0 && start == m && size == n);
    memcpy((void *)(uintptr_t)m, in, n);
    CHECK(touch_in_child((void *)(uintptr_t)m, true) == 0);
    fakecuda_reset_stats();
    CU(cuMemcpy(d2, m, n));
    fakecuda_copy_stats(&st);
    CHECK(st.dtod == 1);
    CU(cuMemFree(m));

    /* Pinned memory: host memory type, accessible; registered memory the same. */
    void *pinned;
    CU(cuMemHostAlloc(&pinned, n, 0));
    CU(cuPointerGetAttributes(9, attrs, data, (CUdeviceptr)pinned));
    CHECK(type == CU_MEMORYTYPE_HOST && managed == 0 && legacy == 0 && start == (CUdeviceptr)pinned);
    CU(cuPointerGetAttribute(&hostp, CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)pinned));
    CHECK(hostp == pinned);
    memset(pinned, 1, n);
    CHECK(cuMemFree((CUdeviceptr)pinned) == CUDA_ERROR_INVALID_VALUE);
    CU(cuMemFreeHost(pinned));
    static char user[8192];
    CU(cuMemHostRegister(user + 100, 4000, 0));
    CHECK(cuMemHostRegister(user + 200, 100, 0) == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CU(cuPointerGetAttributes(9, attrs, data, (CUdeviceptr)(user + 150)));
    CHECK(type == CU_MEMORYTYPE_HOST && start == (CUdeviceptr)(user + 100) && size == 4000 && id != 0);
    CU(cuMemHostUnregister(user + 100));
    CHECK(cuMemHostUnregister(user + 100) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(user + 150)) ==
          CUDA_ERROR_INVALID_VALUE);

    /* The context stack. */
    CU(cuCtxPushCurrent(primary0));
    CU(cuCtxPopCurrent(&ctx));
    CHECK(ctx == primary0);
    CU(cuCtxGetCurrent(&ctx));
    CHECK(ctx == primary0);

    /* IPC: another process opens the handle, sees the bytes, and its writes land here. */
    CUdeviceptr shared;
    CU(cuMemAlloc(&shared, IPC_BYTES));
    static unsigned char big[IPC_BYTES];
    fill(big, IPC_BYTES, 11);
    CU(cuMemcpyHtoD(shared, big, IPC_BYTES));
    CU(cuCtxSynchronize()); /* lands before the child looks */
    CUipcMemHandle handle;
    CHECK(cuIpcGetMemHandle(&handle, shared + 8) == CUDA_ERROR_INVALID_VALUE); /* not the base */
    CU(cuIpcGetMemHandle(&handle, shared));
    CUdeviceptr self;
    CHECK(cuIpcOpenMemHandle(&self, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(run_ipc_child(&handle, false) == 0);
    CU(cuMemcpyDtoH(big, shared, IPC_BYTES));
    CHECK(filled(big, IPC_BYTES, 99));
    /* Freed, the handle names nothing. */
    CU(cuMemFree(shared));
    CHECK(run_ipc_child(&handle, true) == 0);

    test_vmm();
    test_kernels();

    /* The last release of a primary context destroys it with its memory. */
    CUdevice last;
    CUcontext lastctx;
    CU(cuDeviceGet(&last, count - 1));
    CU(cuDevicePrimaryCtxRetain(&lastctx, last));
    CU(cuCtxPushCurrent(lastctx));
    CUdeviceptr doomed;
    CU(cuMemAlloc(&doomed, 64));
    CU(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, doomed));
    CHECK(ordinal == count - 1);
    int releases = last == dev0 ? 2 : 1; /* device 0's context was retained above */
    for (int i = 0; i < releases; i++)
        CU(cuDevicePrimaryCtxRelease(last));
    CHECK(cuDevicePrimaryCtxRelease(last) == CUDA_ERROR_INVALID_CONTEXT);
    CU(cuDevicePrimaryCtxGetState(last, &flags, &active));
    CHECK(active == 0);
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, doomed) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemAlloc(&doomed, 64) == CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CU(cuCtxPopCurrent(&ctx));

    printf("%s (%d failure%s)\n", failures ? "FAILED" : "ok", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
