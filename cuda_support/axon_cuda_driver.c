/* The CUDA driver at run time: this file owns the driver library's handle, the table of driver entry points
 * (struct axon_cuda_driver), the decision whether CUDA support is on (AXON_CUDA, a driver, a GPU), the
 * GPUs' handles, and the primary contexts the layer retains for its copies.
 *
 * The driver is libcuda.so.1 unless AXON_CUDA_LIBRARY names another library (the tests' fake driver,
 * tests/fakecuda). The library never links libcuda or libcudart: linking would make the driver a
 * load-time dependency of every program, GPU or not. The entry points come from cuGetProcAddress
 * (CUDA 12 and later) asked for the ABI our prototypes follow, else from dlsym of the versioned symbol
 * names; both give the legacy default-stream variants, the ones a program gets from the runtime by
 * default. MPI_Init does dlopen and cuInit only: cuInit creates no context, and frameworks that choose
 * their device after MPI_Init (and tools that watch context creation) depend on that. A unit test
 * installs its own table with axon_cuda_driver_install, as coll's tests install a transport. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

atomic_bool axon_cuda_active;
atomic_bool axon_cuda_watch;

/* Why support is off (or "on"): for axon_info and for AXON_CUDA=1's error. */
static char axon_cuda_why[320] = "not initialized";

const char *axon_cuda_status(void)
{
    return axon_cuda_why;
}

#if AXON_HAVE_CUDA_H

static void axon_cuda_copy_streams_finalize(void);

struct axon_cuda_state axon_cuda;

static void *axon_cuda_lib;                       /* the driver, kept open once opened */
static char axon_cuda_lib_name[AXON_CONFIG_STRING_MAX]; /* what axon_cuda_lib was opened as */
static struct axon_cuda_driver axon_cuda_loaded;  /* the real driver's entry points */
static bool axon_cuda_loaded_ok;
static pthread_mutex_t axon_cuda_retain_lock = PTHREAD_MUTEX_INITIALIZER;

const char *axon_cuda_driver_error_string(CUresult rc)
{
    const char *s = NULL;
    const struct axon_cuda_driver *d = axon_cuda.drv ? axon_cuda.drv : axon_cuda_loaded_ok ? &axon_cuda_loaded : NULL;
    if (d && d->get_error_string && d->get_error_string(rc, &s) == CUDA_SUCCESS && s)
        return s;
    static __thread char buf[32];
    snprintf(buf, sizeof(buf), "CUDA error %d", (int)rc);
    return buf;
}

/* ---- loading --------------------------------------------------------------------------------------- */

struct axon_cuda_entry {
    const char *name;      /* base name, for cuGetProcAddress */
    const char *symbol;    /* the exported name of the variant our prototype matches, for dlsym */
    size_t offset;         /* of the field in struct axon_cuda_driver */
    bool required;
};

#define AXON_CUDA_ENTRY(field, name, symbol, required) \
    {name, symbol, offsetof(struct axon_cuda_driver, field), required}

static const struct axon_cuda_entry axon_cuda_entries[] = {
    AXON_CUDA_ENTRY(init, "cuInit", "cuInit", true),
    AXON_CUDA_ENTRY(driver_get_version, "cuDriverGetVersion", "cuDriverGetVersion", true),
    AXON_CUDA_ENTRY(get_error_string, "cuGetErrorString", "cuGetErrorString", true),
    AXON_CUDA_ENTRY(device_get_count, "cuDeviceGetCount", "cuDeviceGetCount", true),
    AXON_CUDA_ENTRY(device_get, "cuDeviceGet", "cuDeviceGet", true),
    AXON_CUDA_ENTRY(device_get_name, "cuDeviceGetName", "cuDeviceGetName", true),
    AXON_CUDA_ENTRY(device_can_access_peer, "cuDeviceCanAccessPeer", "cuDeviceCanAccessPeer", true),
    AXON_CUDA_ENTRY(device_primary_ctx_get_state, "cuDevicePrimaryCtxGetState", "cuDevicePrimaryCtxGetState", true),
    AXON_CUDA_ENTRY(device_primary_ctx_retain, "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain", true),
    AXON_CUDA_ENTRY(device_primary_ctx_release, "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2", true),
    AXON_CUDA_ENTRY(ctx_get_current, "cuCtxGetCurrent", "cuCtxGetCurrent", true),
    AXON_CUDA_ENTRY(ctx_push_current, "cuCtxPushCurrent", "cuCtxPushCurrent_v2", true),
    AXON_CUDA_ENTRY(ctx_pop_current, "cuCtxPopCurrent", "cuCtxPopCurrent_v2", true),
    AXON_CUDA_ENTRY(pointer_get_attribute, "cuPointerGetAttribute", "cuPointerGetAttribute", true),
    AXON_CUDA_ENTRY(pointer_get_attributes, "cuPointerGetAttributes", "cuPointerGetAttributes", true),
    AXON_CUDA_ENTRY(mem_get_address_range, "cuMemGetAddressRange", "cuMemGetAddressRange_v2", true),
    AXON_CUDA_ENTRY(mem_retain_allocation_handle, "cuMemRetainAllocationHandle", "cuMemRetainAllocationHandle", false),
    AXON_CUDA_ENTRY(mem_release, "cuMemRelease", "cuMemRelease", false),
    AXON_CUDA_ENTRY(mem_copy, "cuMemcpy", "cuMemcpy", true),
    AXON_CUDA_ENTRY(mem_copy_dtod, "cuMemcpyDtoD", "cuMemcpyDtoD_v2", false),
    AXON_CUDA_ENTRY(mem_copy_dtoh, "cuMemcpyDtoH", "cuMemcpyDtoH_v2", false),
    AXON_CUDA_ENTRY(mem_copy_htod, "cuMemcpyHtoD", "cuMemcpyHtoD_v2", false),
    AXON_CUDA_ENTRY(stream_synchronize, "cuStreamSynchronize", "cuStreamSynchronize", true),
    AXON_CUDA_ENTRY(stream_create, "cuStreamCreate", "cuStreamCreate", false),
    AXON_CUDA_ENTRY(stream_destroy, "cuStreamDestroy", "cuStreamDestroy_v2", false),
    AXON_CUDA_ENTRY(mem_copy_async, "cuMemcpyAsync", "cuMemcpyAsync", false),
    AXON_CUDA_ENTRY(mem_host_alloc, "cuMemHostAlloc", "cuMemHostAlloc", false),
    AXON_CUDA_ENTRY(mem_free_host, "cuMemFreeHost", "cuMemFreeHost", false),
    AXON_CUDA_ENTRY(mem_host_register, "cuMemHostRegister", "cuMemHostRegister_v2", false),
    AXON_CUDA_ENTRY(mem_host_unregister, "cuMemHostUnregister", "cuMemHostUnregister", false),
    AXON_CUDA_ENTRY(ipc_get_mem_handle, "cuIpcGetMemHandle", "cuIpcGetMemHandle", false),
    AXON_CUDA_ENTRY(ipc_open_mem_handle, "cuIpcOpenMemHandle", "cuIpcOpenMemHandle_v2", false),
    AXON_CUDA_ENTRY(ipc_close_mem_handle, "cuIpcCloseMemHandle", "cuIpcCloseMemHandle", false),
    AXON_CUDA_ENTRY(mem_export_to_shareable_handle, "cuMemExportToShareableHandle", "cuMemExportToShareableHandle",
                    false),
    AXON_CUDA_ENTRY(mem_import_from_shareable_handle, "cuMemImportFromShareableHandle",
                    "cuMemImportFromShareableHandle", false),
    AXON_CUDA_ENTRY(mem_address_reserve, "cuMemAddressReserve", "cuMemAddressReserve", false),
    AXON_CUDA_ENTRY(mem_address_free, "cuMemAddressFree", "cuMemAddressFree", false),
    AXON_CUDA_ENTRY(mem_map, "cuMemMap", "cuMemMap", false),
    AXON_CUDA_ENTRY(mem_unmap, "cuMemUnmap", "cuMemUnmap", false),
    AXON_CUDA_ENTRY(mem_set_access, "cuMemSetAccess", "cuMemSetAccess", false),
    AXON_CUDA_ENTRY(mem_alloc, "cuMemAlloc", "cuMemAlloc_v2", false),
    AXON_CUDA_ENTRY(mem_free, "cuMemFree", "cuMemFree_v2", false),
    AXON_CUDA_ENTRY(module_load_data, "cuModuleLoadData", "cuModuleLoadData", false),
    AXON_CUDA_ENTRY(module_unload, "cuModuleUnload", "cuModuleUnload", false),
    AXON_CUDA_ENTRY(module_get_function, "cuModuleGetFunction", "cuModuleGetFunction", false),
    AXON_CUDA_ENTRY(launch_kernel, "cuLaunchKernel", "cuLaunchKernel", false),
    AXON_CUDA_ENTRY(device_get_attribute, "cuDeviceGetAttribute", "cuDeviceGetAttribute", false),
};

typedef CUresult (*axon_cuda_get_proc_address_t)(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                                 CUdriverProcAddressQueryResult *status);

/* Opens the driver library (libcuda.so.1 unless AXON_CUDA_LIBRARY says otherwise) and fills
 * axon_cuda_loaded. */
static int axon_cuda_driver_load(const char *library, char *why, size_t whylen)
{
    /* Another library than the one opened before (a test switching drivers): its entry points are
     * looked up afresh. The old one stays open; functions of it may still be referenced. */
    if (axon_cuda_lib && strcmp(library, axon_cuda_lib_name) != 0) {
        axon_cuda_lib = NULL;
        axon_cuda_loaded_ok = false;
    }
    if (axon_cuda_loaded_ok)
        return MPI_SUCCESS;
    if (!axon_cuda_lib) {
        /* RTLD_LOCAL: the driver's symbols stay out of the global namespace, where they could shadow
         * or be shadowed by the application's own CUDA libraries. */
        axon_cuda_lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
        if (!axon_cuda_lib) {
            const char *e = dlerror();
            snprintf(why, whylen, "no CUDA driver (%s)", e ? e : "the library cannot be loaded");
            return MPI_ERR_OTHER;
        }
        snprintf(axon_cuda_lib_name, sizeof(axon_cuda_lib_name), "%s", library);
    }
    /* cuGetProcAddress_v2 exists from CUDA 12.0 on; older drivers are read by symbol name. */
    axon_cuda_get_proc_address_t gpa = (axon_cuda_get_proc_address_t)dlsym(axon_cuda_lib, "cuGetProcAddress_v2");
    struct axon_cuda_driver drv;
    memset(&drv, 0, sizeof(drv));
    for (size_t i = 0; i < AXON_ARRAY_SIZE(axon_cuda_entries); i++) {
        const struct axon_cuda_entry *e = &axon_cuda_entries[i];
        void *fn = NULL;
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        if (gpa && (gpa(e->name, &fn, AXON_CUDA_ABI_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status) !=
                        CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS))
            fn = NULL;
        if (!fn)
            fn = dlsym(axon_cuda_lib, e->symbol);
        if (!fn && e->required) {
            snprintf(why, whylen, "no usable CUDA driver (%s lacks %s)", library, e->symbol);
            return MPI_ERR_OTHER;
        }
        /* POSIX gives function pointers and void * one representation (dlsym relies on it too). */
        memcpy((char *)&drv + e->offset, &fn, sizeof(fn));
    }
    axon_cuda_loaded = drv;
    axon_cuda_loaded_ok = true;
    return MPI_SUCCESS;
}

int axon_cuda_driver_install(const struct axon_cuda_driver *drv, char *err, size_t errlen)
{
    axon_cuda_driver_uninstall();
    CUresult rc = drv->init(0);
    if (rc == CUDA_ERROR_NO_DEVICE) {
        snprintf(err, errlen, "no GPU (the CUDA driver sees no device)");
        return MPI_ERR_OTHER;
    }
    const char *s = NULL;
    if (rc != CUDA_SUCCESS) {
        if (drv->get_error_string(rc, &s) != CUDA_SUCCESS || !s)
            s = "unknown error";
        snprintf(err, errlen, "the CUDA driver does not start (cuInit: %s)", s);
        return MPI_ERR_OTHER;
    }
    int version = 0;
    if (drv->driver_get_version(&version) != CUDA_SUCCESS || version < AXON_CUDA_MIN_DRIVER_VERSION) {
        snprintf(err, errlen, "the CUDA driver is too old (version %d.%d; Axon needs %d.%d or newer)",
                 version / 1000, version % 1000 / 10, AXON_CUDA_MIN_DRIVER_VERSION / 1000,
                 AXON_CUDA_MIN_DRIVER_VERSION % 1000 / 10);
        return MPI_ERR_OTHER;
    }
    int count = 0;
    rc = drv->device_get_count(&count);
    if (rc != CUDA_SUCCESS || count <= 0) {
        snprintf(err, errlen, "no GPU (the CUDA driver sees no device)");
        return MPI_ERR_OTHER;
    }
    if (count > AXON_CUDA_MAX_DEVICES)
        count = AXON_CUDA_MAX_DEVICES;
    for (int i = 0; i < count; i++) {
        rc = drv->device_get(&axon_cuda.devices[i], i);
        if (rc != CUDA_SUCCESS) {
            if (drv->get_error_string(rc, &s) != CUDA_SUCCESS || !s)
                s = "unknown error";
            snprintf(err, errlen, "cuDeviceGet(%d) failed: %s", i, s);
            return MPI_ERR_OTHER;
        }
    }
    axon_cuda.drv = drv;
    axon_cuda.driver_version = version;
    axon_cuda.ndevices = count;
    axon_cuda_memtype_init();
    snprintf(axon_cuda_why, sizeof(axon_cuda_why), "on");
    atomic_store(&axon_cuda_active, true);
    atomic_store(&axon_cuda_watch, true);
    return MPI_SUCCESS;
}

void axon_cuda_driver_uninstall(void)
{
    atomic_store(&axon_cuda_active, false);
    atomic_store(&axon_cuda_watch, false);
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (d) {
        axon_cuda_ipc_finalize(); /* in the contexts released below */
        axon_cuda_copy_streams_finalize();
        axon_cuda_window_finalize();
        axon_cuda_bounce_finalize();
        axon_cuda_scratch_finalize();
        axon_cuda_reduce_finalize();
        for (int i = 0; i < axon_cuda.ndevices; i++)
            if (axon_cuda.retained[i])
                d->device_primary_ctx_release(axon_cuda.devices[i]);
        axon_cuda_memtype_finalize();
    }
    memset(&axon_cuda, 0, sizeof(axon_cuda));
}

/* AXON_CUDA=0 in a process that has loaded the driver itself (the application uses CUDA): the driver is
 * installed to classify buffers, support stays off, and a GPU buffer passed to MPI is refused with an
 * error naming it (axon_cuda_memtype_classify) instead of being read by the CPU. A process that has not
 * loaded the driver has no GPU buffers, and pays nothing. */
static void axon_cuda_guard_start(const char *library)
{
    void *loaded = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!loaded)
        return;
    char why[sizeof(axon_cuda_why)];
    if (axon_cuda_driver_load(library, why, sizeof(why)) == MPI_SUCCESS &&
        axon_cuda_driver_install(&axon_cuda_loaded, why, sizeof(why)) == MPI_SUCCESS) {
        atomic_store(&axon_cuda_active, false); /* installed to look, not to move GPU data */
        atomic_store(&axon_cuda_watch, true);
        snprintf(axon_cuda_why, sizeof(axon_cuda_why),
                 "off (AXON_CUDA=0; the process uses CUDA, so GPU buffers passed to MPI are refused)");
    }
    dlclose(loaded);
}

int axon_cuda_init(long mode, const char *library, char *err, size_t errlen)
{
    if (mode == AXON_CUDA_MODE_OFF) {
        axon_cuda_driver_uninstall();
        snprintf(axon_cuda_why, sizeof(axon_cuda_why), "off (AXON_CUDA=0)");
        axon_cuda_guard_start(library && *library ? library : "libcuda.so.1");
        return MPI_SUCCESS;
    }
    if (axon_cuda_enabled())
        return MPI_SUCCESS;
    char why[sizeof(axon_cuda_why)];
    int rc = axon_cuda_driver_load(library && *library ? library : "libcuda.so.1", why, sizeof(why));
    if (rc == MPI_SUCCESS)
        rc = axon_cuda_driver_install(&axon_cuda_loaded, why, sizeof(why));
    if (rc != MPI_SUCCESS) {
        snprintf(axon_cuda_why, sizeof(axon_cuda_why), "%s", why);
        if (mode == AXON_CUDA_MODE_ON) {
            snprintf(err, errlen, "AXON_CUDA=1 asks for CUDA support, which this process cannot have: %s", why);
            return MPI_ERR_OTHER;
        }
        axon_runtime_log_debug(1, "CUDA support off: %s", why);
        return MPI_SUCCESS;
    }
    axon_runtime_log_debug(1, "CUDA support on: driver %d.%d, %d GPU(s)", axon_cuda.driver_version / 1000,
                           axon_cuda.driver_version % 1000 / 10, axon_cuda.ndevices);
    return MPI_SUCCESS;
}

void axon_cuda_finalize(void)
{
    axon_cuda_driver_uninstall();
}

int axon_cuda_driver_version(void)
{
    return axon_cuda.drv ? axon_cuda.driver_version : 0;
}

int axon_cuda_device_count(void)
{
    return axon_cuda.drv ? axon_cuda.ndevices : 0;
}

int axon_cuda_device_get_name(int device, char *name, size_t len)
{
    if (!axon_cuda.drv || device < 0 || device >= axon_cuda.ndevices || len == 0)
        return MPI_ERR_ARG;
    CUresult rc = axon_cuda.drv->device_get_name(name, len > 1024 ? 1024 : (int)len, axon_cuda.devices[device]);
    if (rc != CUDA_SUCCESS) {
        axon_runtime_log_error("cuDeviceGetName(%d) failed: %s", device, axon_cuda_driver_error_string(rc));
        return MPI_ERR_OTHER;
    }
    name[len - 1] = '\0';
    return MPI_SUCCESS;
}

int axon_cuda_device_get_peer_access(int device, int peer, bool *can)
{
    if (!axon_cuda.drv || device < 0 || device >= axon_cuda.ndevices || peer < 0 || peer >= axon_cuda.ndevices)
        return MPI_ERR_ARG;
    if (device == peer) {
        *can = true;
        return MPI_SUCCESS;
    }
    int v = 0;
    CUresult rc = axon_cuda.drv->device_can_access_peer(&v, axon_cuda.devices[device], axon_cuda.devices[peer]);
    if (rc != CUDA_SUCCESS) {
        axon_runtime_log_error("cuDeviceCanAccessPeer(%d, %d) failed: %s", device, peer,
                               axon_cuda_driver_error_string(rc));
        return MPI_ERR_OTHER;
    }
    *can = v != 0;
    return MPI_SUCCESS;
}

/* ---- contexts -------------------------------------------------------------------------------------- */

enum axon_cuda_side axon_cuda_side_of(const struct axon_memkind_info *info)
{
    switch (info->type) {
    case AXON_CUDA_MEMTYPE_DEVICE:
    case AXON_CUDA_MEMTYPE_VMM:
        return AXON_CUDA_SIDE_DEVICE;
    case AXON_CUDA_MEMTYPE_HOST:
    case AXON_CUDA_MEMTYPE_PINNED:
        return AXON_CUDA_SIDE_HOST;
    default:
        return AXON_CUDA_SIDE_ANY;
    }
}

/* Copy streams: one non-blocking stream per context, made on first use, for AXON_CUDA_COPY_STREAM=1.
 * Its copies wait for nothing the program queued (as other CUDA-aware MPIs' copies do: a buffer handed
 * to MPI must be ready); each copy is waited for before the call returns, as on the legacy stream. */
#define AXON_CUDA_COPY_STREAMS 16
static struct {
    pthread_mutex_t lock;
    int n;
    CUcontext ctx[AXON_CUDA_COPY_STREAMS];
    CUstream stream[AXON_CUDA_COPY_STREAMS];
} axon_cuda_copy_streams = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The current context's copy stream; NULL: the legacy stream serves (knob off, no context, no room). */
static CUstream axon_cuda_copy_stream(void)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    CUcontext ctx = NULL;
    if (!axon_config.cuda_copy_stream || !d->stream_create || !d->mem_copy_async ||
        d->ctx_get_current(&ctx) != CUDA_SUCCESS || !ctx)
        return NULL;
    CUstream s = NULL;
    pthread_mutex_lock(&axon_cuda_copy_streams.lock);
    for (int i = 0; i < axon_cuda_copy_streams.n && !s; i++)
        if (axon_cuda_copy_streams.ctx[i] == ctx)
            s = axon_cuda_copy_streams.stream[i];
    if (!s && axon_cuda_copy_streams.n < AXON_CUDA_COPY_STREAMS &&
        d->stream_create(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS) {
        axon_cuda_copy_streams.ctx[axon_cuda_copy_streams.n] = ctx;
        axon_cuda_copy_streams.stream[axon_cuda_copy_streams.n++] = s;
    }
    pthread_mutex_unlock(&axon_cuda_copy_streams.lock);
    return s;
}

/* Destroys the copy streams, each in its context (MPI_Finalize, before the contexts go). */
static void axon_cuda_copy_streams_finalize(void)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    pthread_mutex_lock(&axon_cuda_copy_streams.lock);
    for (int i = 0; i < axon_cuda_copy_streams.n; i++) {
        CUcontext popped;
        if (d->stream_destroy && d->ctx_push_current(axon_cuda_copy_streams.ctx[i]) == CUDA_SUCCESS) {
            d->stream_destroy(axon_cuda_copy_streams.stream[i]);
            d->ctx_pop_current(&popped);
        }
    }
    axon_cuda_copy_streams.n = 0;
    pthread_mutex_unlock(&axon_cuda_copy_streams.lock);
}

/* Why not always cuMemcpy, which reads the direction from unified addresses: where the caller knows
 * both sides, the call that names the direction leaves the driver nothing to infer (for clarity, not
 * speed: a slow IPC copy comes from pinning or time slicing, not from the call). Host to host is not a
 * GPU copy: memcpy. With a copy stream (AXON_CUDA_COPY_STREAM=1), one asynchronous copy on it and a wait
 * for it instead. */
CUresult axon_cuda_copy_sync(void *dst, enum axon_cuda_side dside, const void *src, enum axon_cuda_side sside,
                             size_t bytes)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    CUdeviceptr dp = (CUdeviceptr)(uintptr_t)dst, sp = (CUdeviceptr)(uintptr_t)src;
    CUresult cr;
    if (bytes == 0)
        return CUDA_SUCCESS;
    if (dside == AXON_CUDA_SIDE_HOST && sside == AXON_CUDA_SIDE_HOST) {
        memmove(dst, src, bytes);
        return CUDA_SUCCESS;
    }
    CUstream stream = axon_cuda_copy_stream();
    if (stream) {
        cr = d->mem_copy_async(dp, sp, bytes, stream);
        return cr == CUDA_SUCCESS ? d->stream_synchronize(stream) : cr;
    }
    if (dside == AXON_CUDA_SIDE_DEVICE && sside == AXON_CUDA_SIDE_DEVICE && d->mem_copy_dtod)
        cr = d->mem_copy_dtod(dp, sp, bytes);
    else if (dside == AXON_CUDA_SIDE_HOST && sside == AXON_CUDA_SIDE_DEVICE && d->mem_copy_dtoh)
        cr = d->mem_copy_dtoh(dst, sp, bytes);
    else if (dside == AXON_CUDA_SIDE_DEVICE && sside == AXON_CUDA_SIDE_HOST && d->mem_copy_htod)
        cr = d->mem_copy_htod(dp, src, bytes);
    else
        cr = d->mem_copy(dp, sp, bytes);
    /* Device to device and from pageable host memory to the device, the copy may still be running (or
     * waiting to land) when the call returns; the legacy stream is where it runs. Into host memory it
     * has ended when the call returns. */
    if (cr == CUDA_SUCCESS && dside != AXON_CUDA_SIDE_HOST)
        cr = d->stream_synchronize(CU_STREAM_LEGACY);
    return cr;
}

int axon_cuda_ctx_enter(int device, bool *pushed)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    *pushed = false;
    CUcontext cur = NULL;
    CUresult rc = d->ctx_get_current(&cur);
    if (rc != CUDA_SUCCESS) {
        axon_runtime_log_error("cuCtxGetCurrent failed: %s", axon_cuda_driver_error_string(rc));
        return MPI_ERR_OTHER;
    }
    /* The application's context, whatever its device: with unified addressing a copy works from any. */
    if (cur)
        return MPI_SUCCESS;
    if (device < 0 || device >= axon_cuda.ndevices) {
        axon_runtime_log_error("no CUDA context is current and the buffer names no GPU (ordinal %d)", device);
        return MPI_ERR_OTHER;
    }
    /* Retained once and kept until MPI_Finalize: a retain and release per copy would create and destroy
     * the context each time when the application holds none. */
    pthread_mutex_lock(&axon_cuda_retain_lock);
    CUcontext ctx = axon_cuda.retained[device];
    if (!ctx) {
        rc = d->device_primary_ctx_retain(&ctx, axon_cuda.devices[device]);
        if (rc == CUDA_SUCCESS)
            axon_cuda.retained[device] = ctx;
    }
    pthread_mutex_unlock(&axon_cuda_retain_lock);
    if (rc != CUDA_SUCCESS) {
        axon_runtime_log_error("cuDevicePrimaryCtxRetain(%d) failed: %s", device, axon_cuda_driver_error_string(rc));
        return MPI_ERR_OTHER;
    }
    /* Pushed and popped around the copy, so the thread's state is the application's again after it. */
    rc = d->ctx_push_current(ctx);
    if (rc != CUDA_SUCCESS) {
        axon_runtime_log_error("cuCtxPushCurrent failed: %s", axon_cuda_driver_error_string(rc));
        return MPI_ERR_OTHER;
    }
    *pushed = true;
    return MPI_SUCCESS;
}

void axon_cuda_ctx_leave(bool pushed)
{
    if (pushed) {
        CUcontext ctx;
        axon_cuda.drv->ctx_pop_current(&ctx);
    }
}

#else /* !AXON_HAVE_CUDA_H: configure found no cuda.h; every buffer is host memory. */

int axon_cuda_init(long mode, const char *library, char *err, size_t errlen)
{
    (void)library;
    snprintf(axon_cuda_why, sizeof(axon_cuda_why), "%s", mode == AXON_CUDA_MODE_OFF ? "off (AXON_CUDA=0)" :
             "not built (configure found no cuda.h)");
    if (mode == AXON_CUDA_MODE_ON) {
        snprintf(err, errlen, "AXON_CUDA=1 asks for CUDA support, but this build of Axon has none "
                 "(configure found no cuda.h; see --with-cuda)");
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

void axon_cuda_finalize(void)
{
}

int axon_cuda_driver_version(void)
{
    return 0;
}

int axon_cuda_device_count(void)
{
    return 0;
}

int axon_cuda_device_get_name(int device, char *name, size_t len)
{
    (void)device;
    (void)name;
    (void)len;
    return MPI_ERR_ARG;
}

int axon_cuda_device_get_peer_access(int device, int peer, bool *can)
{
    (void)device;
    (void)peer;
    (void)can;
    return MPI_ERR_ARG;
}

#endif
