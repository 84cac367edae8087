/* Unit tests of the memory-type classification and the memory kinds against a fake CUDA driver
 * (axon_cuda_driver_install): device ranges cached and validated by id, a freed and reallocated address
 * never served stale, managed, pinned, pool and VMM memory (mappings side by side, remapped, without
 * memory block ids), host memory told apart without the driver where that is safe, copies in a context
 * of the layer's own when the thread has none, many threads at once, and the loading decisions
 * (AXON_CUDA, no driver, no GPU, an old driver). The fake's "GPU memory" is host memory from mmap, away
 * from the heap, stack and static data the classification recognizes by itself. A build without cuda.h
 * has no CUDA support to test: the program exits 77 (skipped). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#if !AXON_HAVE_CUDA_H

int main(void)
{
    printf("no cuda.h at configure time: CUDA support is compiled out, nothing to test\n");
    return 77;
}

#else

#include "cuda_support/axon_cuda_internal.h"
#include "memkind/axon_memkind.h"

#include <check.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- the fake driver -------------------------------------------------------------------------------- */

enum fake_kind { FAKE_DEVICE, FAKE_MANAGED, FAKE_PINNED, FAKE_POOL, FAKE_VMM, FAKE_UNMAPPED };

struct fake_alloc {
    bool live;
    enum fake_kind kind;
    uintptr_t base;
    size_t size;
    int device;
    uint64_t buffer_id;
    uint64_t block_id;        /* VMM: the physical allocation mapped here */
    uintptr_t res_base;       /* VMM: the reservation the mapping lies in */
    size_t res_size;
};

#define FAKE_MAX 64
static struct fake_alloc fake[FAKE_MAX];
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static char *arena;           /* the fake's GPU memory */
static size_t arena_size;
static uint64_t fake_next_id;

static CUresult fake_init_result;
static int fake_version, fake_count;
static bool fake_block_ids;   /* the driver knows CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID */
static int fake_primary_active;
static __thread CUcontext fake_stack[8];
static __thread int fake_depth;
static CUcontext fake_copy_ctx; /* the context current at the last copy */

static atomic_int n_attrs, n_attr, n_state, n_retain, n_release, n_push, n_pop, n_copy, n_sync, n_range;

static struct fake_alloc *fake_find(uintptr_t a)
{
    for (int i = 0; i < FAKE_MAX; i++)
        if (fake[i].live && a >= fake[i].base && a - fake[i].base < fake[i].size)
            return &fake[i];
    return NULL;
}

static CUresult fake_init(unsigned int flags)
{
    (void)flags;
    return fake_init_result;
}

static CUresult fake_driver_get_version(int *v)
{
    *v = fake_version;
    return CUDA_SUCCESS;
}

static CUresult fake_get_error_string(CUresult rc, const char **s)
{
    *s = rc == CUDA_ERROR_OUT_OF_MEMORY ? "fake: out of memory" : "fake: some error";
    return CUDA_SUCCESS;
}

static CUresult fake_device_get_count(int *c)
{
    *c = fake_count;
    return CUDA_SUCCESS;
}

static CUresult fake_device_get(CUdevice *d, int ordinal)
{
    *d = ordinal;
    return CUDA_SUCCESS;
}

static CUresult fake_device_get_name(char *name, int len, CUdevice d)
{
    snprintf(name, (size_t)len, "Fake GPU %d", (int)d);
    return CUDA_SUCCESS;
}

static CUresult fake_device_can_access_peer(int *can, CUdevice d, CUdevice p)
{
    *can = (d + p) % 2; /* 0 and 1 reach each other; 0 and 2 do not */
    return CUDA_SUCCESS;
}

static CUresult fake_primary_ctx_get_state(CUdevice d, unsigned int *flags, int *active)
{
    (void)d;
    n_state++;
    *flags = 0;
    *active = fake_primary_active;
    return CUDA_SUCCESS;
}

static CUresult fake_primary_ctx_retain(CUcontext *ctx, CUdevice d)
{
    n_retain++;
    fake_primary_active = 1;
    *ctx = (CUcontext)(uintptr_t)(0x1000 + d);
    return CUDA_SUCCESS;
}

static CUresult fake_primary_ctx_release(CUdevice d)
{
    (void)d;
    n_release++;
    return CUDA_SUCCESS;
}

static CUresult fake_ctx_get_current(CUcontext *ctx)
{
    *ctx = fake_depth ? fake_stack[fake_depth - 1] : NULL;
    return CUDA_SUCCESS;
}

static CUresult fake_ctx_push(CUcontext ctx)
{
    n_push++;
    fake_stack[fake_depth++] = ctx;
    return CUDA_SUCCESS;
}

static CUresult fake_ctx_pop(CUcontext *ctx)
{
    n_pop++;
    if (fake_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    *ctx = fake_stack[--fake_depth];
    return CUDA_SUCCESS;
}

static CUresult fake_pointer_get_attribute(void *data, CUpointer_attribute attr, CUdeviceptr ptr)
{
    n_attr++;
    pthread_mutex_lock(&fake_lock);
    struct fake_alloc *f = fake_find((uintptr_t)ptr);
    CUresult rc = CUDA_SUCCESS;
    if (!f || f->kind == FAKE_UNMAPPED)
        rc = CUDA_ERROR_INVALID_VALUE;
    else if (attr == CU_POINTER_ATTRIBUTE_BUFFER_ID)
        *(unsigned long long *)data = f->buffer_id;
    else if ((int)attr == 20 && fake_block_ids) /* MEMORY_BLOCK_ID */
        *(unsigned long long *)data = f->kind == FAKE_VMM ? f->block_id : f->buffer_id;
    else if ((int)attr == 19 && fake_block_ids) /* MAPPING_BASE_ADDR, as new as block ids */
        *(CUdeviceptr *)data = f->base;
    else if ((int)attr == 18 && fake_block_ids) /* MAPPING_SIZE */
        *(size_t *)data = f->size;
    else
        rc = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&fake_lock);
    return rc;
}

/* Writes what a driver would for one attribute: booleans as int, the rest in the documented types. */
static void fake_put(CUpointer_attribute attr, void *data, const struct fake_alloc *f)
{
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned int *)data = !f ? 0 : f->kind == FAKE_PINNED ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = f && f->kind != FAKE_UNMAPPED ? f->buffer_id : 0;
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = f && f->kind == FAKE_MANAGED;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = f ? f->device : -2;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(CUdeviceptr *)data = !f ? 0 : f->kind == FAKE_VMM || f->kind == FAKE_UNMAPPED ? f->res_base : f->base;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = !f ? 0 : f->kind == FAKE_VMM || f->kind == FAKE_UNMAPPED ? f->res_size : f->size;
        break;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(int *)data = f && f->kind != FAKE_UNMAPPED;
        break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
        *(int *)data = f && f->kind == FAKE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(void **)data = f && f->kind == FAKE_POOL ? (void *)0x5000 : NULL;
        break;
    default:
        ck_abort_msg("the classification asked for attribute %d, which the fake does not know", (int)attr);
    }
}

static CUresult fake_pointer_get_attributes(unsigned int n, CUpointer_attribute *attrs, void **data, CUdeviceptr ptr)
{
    n_attrs++;
    pthread_mutex_lock(&fake_lock);
    struct fake_alloc *f = fake_find((uintptr_t)ptr);
    for (unsigned int i = 0; i < n; i++)
        fake_put(attrs[i], data[i], f);
    pthread_mutex_unlock(&fake_lock);
    return CUDA_SUCCESS;
}

static CUresult fake_mem_get_address_range(CUdeviceptr *base, size_t *size, CUdeviceptr ptr)
{
    n_range++;
    pthread_mutex_lock(&fake_lock);
    struct fake_alloc *f = fake_find((uintptr_t)ptr);
    CUresult rc = f && f->kind != FAKE_UNMAPPED ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
    if (rc == CUDA_SUCCESS) {
        *base = f->base;
        *size = f->size;
    }
    pthread_mutex_unlock(&fake_lock);
    return rc;
}

static CUresult fake_retain_allocation_handle(CUmemGenericAllocationHandle *h, void *addr)
{
    pthread_mutex_lock(&fake_lock);
    struct fake_alloc *f = fake_find((uintptr_t)addr);
    CUresult rc = f && f->kind == FAKE_VMM ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *h = f->block_id;
    pthread_mutex_unlock(&fake_lock);
    return rc;
}

static CUresult fake_mem_release(CUmemGenericAllocationHandle h)
{
    (void)h;
    return CUDA_SUCCESS;
}

/* The fake's GPU memory is unreadable to the CPU, as a real GPU's is (the host-page cache relies on it);
 * pinned and managed allocations are host memory the CPU reads. Only the fake's copies (and the tests'
 * checks) open the whole arena for a moment. */
static void fake_protect(const struct fake_alloc *f)
{
    bool cpu = f->live && (f->kind == FAKE_PINNED || f->kind == FAKE_MANAGED);
    ck_assert_int_eq(mprotect((void *)f->base, f->size, cpu ? PROT_READ | PROT_WRITE : PROT_NONE), 0);
}

static void fake_arena_open(void)
{
    ck_assert_int_eq(mprotect(arena, arena_size, PROT_READ | PROT_WRITE), 0);
}

static void fake_arena_close(void)
{
    ck_assert_int_eq(mprotect(arena, arena_size, PROT_NONE), 0);
    for (int i = 0; i < FAKE_MAX; i++)
        if (fake[i].live)
            fake_protect(&fake[i]);
}

static CUresult fake_mem_copy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    n_copy++;
    fake_copy_ctx = fake_depth ? fake_stack[fake_depth - 1] : NULL;
    pthread_mutex_lock(&fake_lock);
    fake_arena_open();
    memcpy((void *)dst, (const void *)src, bytes);
    fake_arena_close();
    pthread_mutex_unlock(&fake_lock);
    return CUDA_SUCCESS;
}

static CUresult fake_stream_synchronize(CUstream s)
{
    (void)s;
    n_sync++;
    return CUDA_SUCCESS;
}

static const struct axon_cuda_driver fake_driver = {
    .init = fake_init,
    .driver_get_version = fake_driver_get_version,
    .get_error_string = fake_get_error_string,
    .device_get_count = fake_device_get_count,
    .device_get = fake_device_get,
    .device_get_name = fake_device_get_name,
    .device_can_access_peer = fake_device_can_access_peer,
    .device_primary_ctx_get_state = fake_primary_ctx_get_state,
    .device_primary_ctx_retain = fake_primary_ctx_retain,
    .device_primary_ctx_release = fake_primary_ctx_release,
    .ctx_get_current = fake_ctx_get_current,
    .ctx_push_current = fake_ctx_push,
    .ctx_pop_current = fake_ctx_pop,
    .pointer_get_attribute = fake_pointer_get_attribute,
    .pointer_get_attributes = fake_pointer_get_attributes,
    .mem_get_address_range = fake_mem_get_address_range,
    .mem_retain_allocation_handle = fake_retain_allocation_handle,
    .mem_release = fake_mem_release,
    .mem_copy = fake_mem_copy,
    .stream_synchronize = fake_stream_synchronize,
};

/* Makes an allocation of the fake at arena + offset. */
static struct fake_alloc *fake_alloc_at(enum fake_kind kind, size_t offset, size_t size, int device)
{
    pthread_mutex_lock(&fake_lock);
    struct fake_alloc *f = NULL;
    for (int i = 0; i < FAKE_MAX && !f; i++)
        if (!fake[i].live)
            f = &fake[i];
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_le(offset + size, arena_size);
    *f = (struct fake_alloc){.live = true, .kind = kind, .base = (uintptr_t)arena + offset, .size = size,
                             .device = device, .buffer_id = fake_next_id++, .block_id = 1000 + fake_next_id++};
    fake_protect(f);
    pthread_mutex_unlock(&fake_lock);
    return f;
}

static void fake_free(struct fake_alloc *f)
{
    pthread_mutex_lock(&fake_lock);
    f->live = false;
    fake_protect(f);
    pthread_mutex_unlock(&fake_lock);
}

static void fake_setup(void)
{
    memset(fake, 0, sizeof(fake));
    fake_next_id = 100;
    fake_init_result = CUDA_SUCCESS;
    fake_version = 12080;
    fake_count = 3;
    fake_block_ids = true;
    fake_primary_active = 1;
    fake_depth = 0;
    n_attrs = n_attr = n_state = n_retain = n_release = n_push = n_pop = n_copy = n_sync = n_range = 0;
    arena_size = 1 << 20;
    arena = mmap(NULL, arena_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(arena, MAP_FAILED);
}

static void fake_install(void)
{
    char err[256];
    ck_assert_int_eq(axon_cuda_driver_install(&fake_driver, err, sizeof(err)), MPI_SUCCESS);
    ck_assert(axon_cuda_enabled());
}

static struct axon_memkind_info classify(const void *p)
{
    struct axon_memkind_info info;
    memset(&info, 0x5a, sizeof(info));
    ck_assert_int_eq(axon_cuda_memtype_of(p, &info), MPI_SUCCESS);
    return info;
}

/* ---- tests -------------------------------------------------------------------------------------------- */

START_TEST(test_loading_decisions)
{
    char err[256] = "";
    /* Off: nothing loaded, everything host. */
    ck_assert_int_eq(axon_cuda_init(AXON_CUDA_MODE_OFF, "libcuda.so.1", err, sizeof(err)), MPI_SUCCESS);
    ck_assert(!axon_cuda_enabled());
    ck_assert_str_eq(axon_cuda_status(), "off (AXON_CUDA=0)");
    int x;
    struct axon_memkind_info info = classify(&x);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(info.kind, AXON_MEMKIND_HOST);
    ck_assert_int_eq(info.device, -1);

    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        dlclose(lib); /* a machine with a driver: the no-driver answers below do not apply */
        return;
    }
    ck_assert_int_eq(axon_cuda_init(AXON_CUDA_MODE_AUTO, "libcuda.so.1", err, sizeof(err)), MPI_SUCCESS);
    ck_assert(!axon_cuda_enabled());
    ck_assert_ptr_nonnull(strstr(axon_cuda_status(), "no CUDA driver"));
    ck_assert_int_eq(axon_cuda_driver_version(), 0);
    ck_assert_int_eq(axon_cuda_device_count(), 0);
    ck_assert_int_eq(axon_cuda_init(AXON_CUDA_MODE_ON, "libcuda.so.1", err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "AXON_CUDA=1"));
    ck_assert_ptr_nonnull(strstr(err, "no CUDA driver"));
    /* The CUDA kind refuses to copy without support, and says so rather than crash. */
    char a[8] = "abcdefg", b[8];
    const struct axon_memkind_ops *cuda = axon_memkind_get(AXON_MEMKIND_CUDA);
    ck_assert_int_eq(cuda->copy_to_host(b, a, sizeof(a), &info), MPI_ERR_OTHER);
}
END_TEST

START_TEST(test_install_failures)
{
    char err[256];
    fake_setup();
    fake_init_result = CUDA_ERROR_NO_DEVICE;
    ck_assert_int_eq(axon_cuda_driver_install(&fake_driver, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "no GPU"));
    ck_assert(!axon_cuda_enabled());
    fake_init_result = CUDA_ERROR_OUT_OF_MEMORY;
    ck_assert_int_eq(axon_cuda_driver_install(&fake_driver, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "fake: out of memory")); /* the driver's own words */
    fake_init_result = CUDA_SUCCESS;
    fake_version = 11020;
    ck_assert_int_eq(axon_cuda_driver_install(&fake_driver, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "too old (version 11.2"));
    fake_version = 12080;
    fake_count = 0;
    ck_assert_int_eq(axon_cuda_driver_install(&fake_driver, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "no GPU"));
    ck_assert(!axon_cuda_enabled());
    fake_count = 3;
    fake_install();
    ck_assert_str_eq(axon_cuda_status(), "on");
    /* Installed, a second init of the layer keeps what is there. */
    ck_assert_int_eq(axon_cuda_init(AXON_CUDA_MODE_ON, "libcuda.so.1", err, sizeof(err)), MPI_SUCCESS);
    ck_assert(axon_cuda_enabled());
    axon_cuda_finalize();
    ck_assert(!axon_cuda_enabled());
}
END_TEST

START_TEST(test_devices)
{
    fake_setup();
    fake_install();
    ck_assert_int_eq(axon_cuda_driver_version(), 12080);
    ck_assert_int_eq(axon_cuda_device_count(), 3);
    char name[64];
    ck_assert_int_eq(axon_cuda_device_get_name(1, name, sizeof(name)), MPI_SUCCESS);
    ck_assert_str_eq(name, "Fake GPU 1");
    ck_assert_int_eq(axon_cuda_device_get_name(3, name, sizeof(name)), MPI_ERR_ARG);
    bool can;
    ck_assert_int_eq(axon_cuda_device_get_peer_access(0, 1, &can), MPI_SUCCESS);
    ck_assert(can);
    ck_assert_int_eq(axon_cuda_device_get_peer_access(0, 2, &can), MPI_SUCCESS);
    ck_assert(!can);
    ck_assert_int_eq(axon_cuda_device_get_peer_access(2, 2, &can), MPI_SUCCESS);
    ck_assert(can);
    ck_assert_int_eq(axon_cuda_device_get_peer_access(0, -1, &can), MPI_ERR_ARG);
    /* Loading asked nothing of contexts: no retain, no push. */
    ck_assert_int_eq(n_retain, 0);
    ck_assert_int_eq(n_push, 0);
    axon_cuda_finalize();
}
END_TEST

static int static_buffer[64];

START_TEST(test_host_without_driver_calls)
{
    fake_setup();
    fake_primary_active = 0; /* no context anywhere yet */
    fake_install();
    int on_stack[16];
    struct axon_memkind_info info = classify(on_stack);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_uint_eq(info.base, 0);
    ck_assert_uint_eq(info.id, 0);
    info = classify(&static_buffer[10]);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    info = classify(NULL);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    char *small = malloc(100);
    if ((uintptr_t)small < (uintptr_t)sbrk(0)) { /* glibc's main arena: the brk heap */
        info = classify(small + 10);
        ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    }
    free(small);
    ck_assert_int_eq(n_attrs, 0);
    ck_assert_int_eq(n_state, 0);

    /* Memory of mmap, while no context exists: host, from the context check alone; the page is known
     * from then on (until it is unmapped: test_host_pages_until_unmapped), so a second look costs no
     * check at all. */
    long page = sysconf(_SC_PAGESIZE);
    char *mapped = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(mapped, MAP_FAILED);
    info = classify(mapped + 5);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 0);
    ck_assert_int_gt(n_state, 0);
    int states = n_state;
    info = classify(mapped + 100);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_state, states);

    /* Once a context exists the driver is asked about a page not seen yet, once. */
    fake_primary_active = 1;
    info = classify(mapped + page + 5);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 1);
    info = classify(mapped + page + 9);
    ck_assert_int_eq(n_attrs, 1);
    /* And the context check is not repeated once it has seen one, even if the context goes. */
    states = n_state;
    fake_primary_active = 0;
    info = classify(mapped + 2 * page);
    ck_assert_int_eq(n_attrs, 2);
    ck_assert_int_eq(n_state, states);
    /* The stack, heap and static data still cost nothing. */
    info = classify(on_stack);
    ck_assert_int_eq(n_attrs, 2);
    munmap(mapped, 1 << 16);
    axon_cuda_finalize();
}
END_TEST

/* The stack check knows only the calling thread's stack, above its current frame: another thread's
 * stack is asked of the driver (it could be anything to this thread), while the thread's own costs
 * nothing from its first classification on. */
struct stack_probe {
    const int *other;         /* a buffer on the main thread's stack */
    int own_attrs, other_attrs; /* driver queries after each classification */
};

static void *stack_prober(void *arg)
{
    struct stack_probe *p = arg;
    int mine[4] = {0};
    struct axon_memkind_info info = classify(mine);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    info = classify(&mine[3]);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    p->own_attrs = n_attrs;
    info = classify(p->other);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    p->other_attrs = n_attrs;
    return NULL;
}

START_TEST(test_stack_is_per_thread)
{
    fake_setup();
    fake_primary_active = 1; /* a context exists: what no check recognizes goes to the driver */
    fake_install();
    int on_stack[4] = {0};
    struct axon_memkind_info info = classify(on_stack);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 0);
    struct stack_probe probe = {.other = on_stack};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, stack_prober, &probe), 0);
    pthread_join(t, NULL);
    ck_assert_int_eq(probe.own_attrs, 0);
    ck_assert_int_eq(probe.other_attrs, 1);
    /* Back in this thread its own stack is still known. */
    info = classify(&on_stack[2]);
    ck_assert_int_eq(n_attrs, 1);
    axon_cuda_finalize();
}
END_TEST

/* A page the driver called host is remembered until it is unmapped: then the address may hold GPU
 * memory (here the fake's, placed where the host page was), and the driver is asked again. A page the
 * CPU cannot read (GPU memory the driver no longer knows, after a free) is never remembered. */
START_TEST(test_host_pages_until_unmapped)
{
    fake_setup();
    fake_primary_active = 1;
    fake_install();
    long page = sysconf(_SC_PAGESIZE);
    char *mapped = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(mapped, MAP_FAILED);
    struct axon_memkind_info info = classify(mapped + 8);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 1);
    info = classify(mapped + 16);
    ck_assert_int_eq(n_attrs, 1);

    /* Buffers at power-of-two distances (mmap'd blocks side by side) do not evict each other: each page
     * is asked about once, however the calls alternate. */
    size_t span = 64 << 20;
    char *wide = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert_ptr_ne(wide, MAP_FAILED);
    for (int round = 0; round < 3; round++)
        for (size_t off = 0; off < span; off += 4 << 20) {
            info = classify(wide + off);
            ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
        }
    ck_assert_int_eq(n_attrs, 1 + 16);
    ck_assert_int_eq(munmap(wide, span), 0);

    /* Unmapped and mapped again at the same place: asked again. */
    ck_assert_int_eq(munmap(mapped, 4 * page), 0);
    ck_assert_ptr_eq(mmap(mapped, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
                     mapped);
    info = classify(mapped + 8);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 18);

    /* Unmapped, and GPU memory there now (the fake's allocation over the same addresses). */
    ck_assert_int_eq(munmap(mapped, 4 * page), 0);
    ck_assert_ptr_eq(mmap(mapped, 4 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0), mapped);
    pthread_mutex_lock(&fake_lock);
    struct fake_alloc *d = &fake[FAKE_MAX - 1];
    *d = (struct fake_alloc){.live = true, .kind = FAKE_DEVICE, .base = (uintptr_t)mapped, .size = 4 * (size_t)page,
                             .device = 0, .buffer_id = fake_next_id++};
    pthread_mutex_unlock(&fake_lock);
    info = classify(mapped + 8);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_DEVICE);
    ck_assert_int_eq(n_attrs, 19);

    /* Freed: the driver says host, but the CPU cannot read it, so it is asked every time. */
    fake_free(d);
    info = classify(mapped + page);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 20);
    info = classify(mapped + page);
    ck_assert_int_eq(n_attrs, 21);
    munmap(mapped, 4 * page);

    /* Unmapped by a raw system call, which libucm does not see (AddressSanitizer's allocator does that),
     * then mapped again through libc: the new mapping takes the stale note away. */
    char *raw = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(raw, MAP_FAILED);
    info = classify(raw + 8);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 22);
    info = classify(raw + 8);
    ck_assert_int_eq(n_attrs, 22); /* known now */
    ck_assert_int_eq(syscall(SYS_munmap, raw, 4 * page), 0);
    /* MAP_FIXED_NOREPLACE, not MAP_FIXED, which libucm reports as an unmapping. */
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE;
    ck_assert_ptr_eq(mmap(raw, 4 * page, PROT_READ | PROT_WRITE, flags, -1, 0), raw);
    info = classify(raw + 8);
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 23); /* asked again */
    munmap(raw, 4 * page);
    axon_cuda_finalize();
}
END_TEST

/* A context current in the calling thread is a context too, even with no primary context active. */
START_TEST(test_current_context_counts)
{
    fake_setup();
    fake_primary_active = 0;
    fake_install();
    fake_ctx_push((CUcontext)0x77);
    struct fake_alloc *d = fake_alloc_at(FAKE_DEVICE, 0, 4096, 0);
    struct axon_memkind_info info = classify((void *)(d->base + 8));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_DEVICE);
    ck_assert_int_eq(n_attrs, 1);
    axon_cuda_finalize();
}
END_TEST

START_TEST(test_device_cache_and_validation)
{
    fake_setup();
    fake_install();
    struct fake_alloc *d = fake_alloc_at(FAKE_DEVICE, 8192, 4 * 4096, 1);
    uint64_t first_id = d->buffer_id;
    struct axon_memkind_info info = classify((void *)(d->base + 100));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_DEVICE);
    ck_assert_int_eq(info.kind, AXON_MEMKIND_CUDA);
    ck_assert_int_eq(info.device, 1);
    ck_assert_uint_eq(info.base, d->base);
    ck_assert_uint_eq(info.size, 4 * 4096);
    ck_assert_uint_eq(info.id, first_id);
    ck_assert_int_eq(n_attrs, 1);

    /* A hit: another pointer into the allocation costs one id check, no full query. */
    int checks = n_attr;
    info = classify((void *)(d->base + 3 * 4096));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_DEVICE);
    ck_assert_uint_eq(info.base, d->base);
    ck_assert_int_eq(n_attrs, 1);
    ck_assert_int_eq(n_attr, checks + 1);
    /* The end of the allocation is outside it. */
    info = classify((void *)(d->base + 4 * 4096));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 2);

    /* Freed and reallocated at the same address, smaller and managed now, on another GPU: the cached
     * range must not be served. */
    fake_free(d);
    struct fake_alloc *m = fake_alloc_at(FAKE_MANAGED, 8192, 2 * 4096, 2);
    ck_assert_uint_ne(m->buffer_id, first_id);
    info = classify((void *)(m->base + 100));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_MANAGED);
    ck_assert_int_eq(info.kind, AXON_MEMKIND_CUDA);
    ck_assert_int_eq(info.device, 2);
    ck_assert_uint_eq(info.size, 2 * 4096);
    ck_assert_uint_eq(info.id, m->buffer_id);
    ck_assert_int_eq(n_attrs, 3);
    /* Beyond the smaller allocation, inside the old one: the old range was evicted, so it is asked. */
    info = classify((void *)(m->base + 3 * 4096));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 4);

    /* Freed and not reallocated: the id check fails and the driver says host. */
    fake_free(m);
    info = classify((void *)(m->base + 100));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_HOST);
    ck_assert_int_eq(n_attrs, 5);
    info = classify((void *)(m->base + 100));
    ck_assert_int_eq(n_attrs, 6); /* nothing cached for it any more */

    /* Reallocated at an address inside the old range but not at its base. */
    struct fake_alloc *d2 = fake_alloc_at(FAKE_DEVICE, 8192 + 4096, 4096, 0);
    info = classify((void *)(d2->base + 1));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_DEVICE);
    ck_assert_uint_eq(info.base, d2->base);
    ck_assert_uint_eq(info.id, d2->buffer_id);
    axon_cuda_finalize();
}
END_TEST

START_TEST(test_pinned_pool)
{
    fake_setup();
    fake_install();
    struct fake_alloc *p = fake_alloc_at(FAKE_PINNED, 0, 4096, 0);
    struct fake_alloc *pool = fake_alloc_at(FAKE_POOL, 65536, 8192, 2);
    struct axon_memkind_info info = classify((void *)(p->base + 10));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_PINNED);
    ck_assert_int_eq(info.kind, AXON_MEMKIND_HOST); /* the CPU copies it */
    ck_assert_uint_eq(info.id, p->buffer_id);
    info = classify((void *)(p->base + 20));
    ck_assert_int_eq(n_attrs, 1); /* cached too */
    info = classify((void *)(pool->base + 10));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_DEVICE);
    ck_assert_int_eq(info.device, 2);
    ck_assert_uint_eq(info.base, pool->base);
    axon_cuda_finalize();
}
END_TEST

START_TEST(test_vmm)
{
    fake_setup();
    fake_install();
    /* One reservation of 4 pages with two mappings side by side (PyTorch's expandable segments). */
    struct fake_alloc *a = fake_alloc_at(FAKE_VMM, 0, 2 * 4096, 0);
    struct fake_alloc *b = fake_alloc_at(FAKE_VMM, 2 * 4096, 2 * 4096, 0);
    a->res_base = b->res_base = (uintptr_t)arena;
    a->res_size = b->res_size = 4 * 4096;
    struct axon_memkind_info info = classify((void *)(b->base + 5));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_VMM);
    ck_assert_int_eq(info.kind, AXON_MEMKIND_CUDA);
    ck_assert_uint_eq(info.base, b->base); /* the mapping, not the reservation */
    ck_assert_uint_eq(info.size, 2 * 4096);
    ck_assert_uint_eq(info.id, b->block_id);
    info = classify((void *)(a->base + 5));
    ck_assert_uint_eq(info.base, a->base);
    ck_assert_uint_eq(info.id, a->block_id);
    ck_assert_int_eq(n_attrs, 2);
    ck_assert_int_eq(n_range, 0); /* the mapping came from the mapping attributes */
    info = classify((void *)(a->base + 6));
    ck_assert_int_eq(n_attrs, 2); /* a hit, checked by block id */

    /* Unmapped and another allocation mapped in its place: the buffer id of the reservation may stay,
     * the block id does not. */
    uint64_t buffer_id = a->buffer_id;
    fake_free(a);
    struct fake_alloc *c = fake_alloc_at(FAKE_VMM, 0, 2 * 4096, 0);
    c->res_base = (uintptr_t)arena;
    c->res_size = 4 * 4096;
    c->buffer_id = buffer_id;
    info = classify((void *)(c->base + 6));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_VMM);
    ck_assert_uint_eq(info.id, c->block_id);
    ck_assert_int_eq(n_attrs, 3);

    /* Nothing mapped at an address of a reservation: a clear error, not a host answer. */
    struct fake_alloc *hole = fake_alloc_at(FAKE_UNMAPPED, 8 * 4096, 4096, 0);
    hole->res_base = hole->base;
    hole->res_size = hole->size;
    struct axon_memkind_info bad;
    ck_assert_int_eq(axon_cuda_memtype_of((void *)(hole->base + 1), &bad), MPI_ERR_BUFFER);
    axon_cuda_finalize();
}
END_TEST

/* A driver without memory block ids: VMM memory is classified right every time, never cached. */
START_TEST(test_vmm_without_block_ids)
{
    fake_setup();
    fake_block_ids = false;
    fake_install();
    struct fake_alloc *a = fake_alloc_at(FAKE_VMM, 0, 2 * 4096, 1);
    a->res_base = a->base;
    a->res_size = 8 * 4096;
    struct axon_memkind_info info = classify((void *)(a->base + 5));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_VMM);
    ck_assert_int_eq(info.device, 1);
    ck_assert_uint_eq(info.base, a->base);
    ck_assert_uint_eq(info.size, 2 * 4096);
    info = classify((void *)(a->base + 5));
    ck_assert_int_eq(info.type, AXON_CUDA_MEMTYPE_VMM);
    ck_assert_int_eq(n_attrs, 2);
    ck_assert_int_gt(n_range, 0); /* an older driver: the mapping from cuMemGetAddressRange */
    /* Plain device memory is still cached by buffer id. */
    struct fake_alloc *d = fake_alloc_at(FAKE_DEVICE, 65536, 4096, 0);
    classify((void *)d->base);
    classify((void *)d->base);
    ck_assert_int_eq(n_attrs, 3);
    axon_cuda_finalize();
}
END_TEST

START_TEST(test_copies)
{
    fake_setup();
    fake_install(); /* a primary context is active (another thread's), none is current in this one */
    struct fake_alloc *d = fake_alloc_at(FAKE_DEVICE, 0, 4096, 1);
    char src[64], dst[64];
    for (int i = 0; i < 64; i++)
        src[i] = (char)(i * 7);
    struct axon_memkind_info info = classify((void *)d->base);
    ck_assert_int_eq(info.kind, AXON_MEMKIND_CUDA);
    const struct axon_memkind_ops *ops = axon_memkind_get(info.kind);
    ck_assert_str_eq(ops->name, "cuda");

    /* No context in this thread: the device's primary context is retained and pushed for the copy, then
     * popped, so the thread is as it was. */
    ck_assert_int_eq(ops->copy_from_host((void *)d->base, src, sizeof(src), &info), MPI_SUCCESS);
    ck_assert_int_eq(n_copy, 1);
    ck_assert_int_eq(n_retain, 1);
    ck_assert_int_eq(n_push, 1);
    ck_assert_int_eq(n_pop, 1);
    ck_assert_int_eq(fake_depth, 0);
    ck_assert_ptr_eq(fake_copy_ctx, (CUcontext)(uintptr_t)(0x1000 + 1));
    ck_assert_int_eq(n_sync, 1); /* a copy to the device waits for its bytes to land */
    fake_arena_open();
    ck_assert_int_eq(memcmp((void *)d->base, src, sizeof(src)), 0);
    fake_arena_close();

    /* Retained once: the second copy pushes again but does not retain again. */
    ck_assert_int_eq(ops->copy_to_host(dst, (void *)d->base, sizeof(dst), &info), MPI_SUCCESS);
    ck_assert_int_eq(memcmp(dst, src, sizeof(src)), 0);
    ck_assert_int_eq(n_retain, 1);
    ck_assert_int_eq(n_push, 2);
    ck_assert_int_eq(n_sync, 1);

    /* A context of the application's, current in the thread, is used as it is. */
    fake_ctx_push((CUcontext)0x99);
    int pushes = n_push;
    ck_assert_int_eq(ops->copy_to_host(dst, (void *)d->base, 16, &info), MPI_SUCCESS);
    ck_assert_int_eq(n_push, pushes);
    ck_assert_ptr_eq(fake_copy_ctx, (CUcontext)0x99);
    ck_assert_int_eq(ops->copy_to_host(dst, (void *)d->base, 0, &info), MPI_SUCCESS);
    ck_assert_int_eq(n_copy, 3); /* nothing to do for 0 bytes */

    /* The host kind copies with memcpy and claims everything. */
    const struct axon_memkind_ops *host = axon_memkind_get(AXON_MEMKIND_HOST);
    ck_assert_str_eq(host->name, "host");
    bool mine = false;
    ck_assert_int_eq(host->classify(dst, &info, &mine), MPI_SUCCESS);
    ck_assert(mine);
    memset(dst, 0, sizeof(dst));
    ck_assert_int_eq(host->copy_to_host(dst, src, sizeof(src), &info), MPI_SUCCESS);
    ck_assert_int_eq(memcmp(dst, src, sizeof(src)), 0);
    ck_assert_int_eq(n_copy, 3);
    /* The CUDA kind claims device memory only. */
    ck_assert_int_eq(ops->classify((void *)d->base, &info, &mine), MPI_SUCCESS);
    ck_assert(mine);
    ck_assert_int_eq(ops->classify(dst, &info, &mine), MPI_SUCCESS);
    ck_assert(!mine);
    ck_assert_ptr_null(axon_memkind_get(AXON_MEMKIND_COUNT));

    /* Finalize gives back the primary context it retained. */
    axon_cuda_finalize();
    ck_assert_int_eq(n_release, 1);
}
END_TEST

/* Eight threads classify device, managed and host pointers while the main thread frees and reallocates
 * one allocation at the same address, over and over: no answer may name an id that was not live at
 * that address during the call. */
struct churn {
    struct fake_alloc *stable[3];
    struct fake_alloc *moving;
    atomic_uint_least64_t moving_min_id; /* ids below this were freed before the call began */
    atomic_bool stop;
    char *host;
    atomic_int errors;
};

static void *churn_reader(void *arg)
{
    struct churn *c = arg;
    int local[4];
    for (int iter = 0; iter < 20000 && !atomic_load(&c->stop); iter++) {
        struct axon_memkind_info info;
        struct fake_alloc *s = c->stable[iter % 3];
        if (axon_cuda_memtype_of((void *)(s->base + (size_t)iter % s->size), &info) != MPI_SUCCESS ||
            info.id != s->buffer_id || info.base != s->base)
            c->errors++;
        uint64_t floor = atomic_load(&c->moving_min_id);
        if (axon_cuda_memtype_of((void *)(c->moving->base + 8), &info) != MPI_SUCCESS)
            c->errors++;
        else if (info.type != AXON_CUDA_MEMTYPE_HOST && info.id < floor)
            c->errors++; /* a stale range was served */
        if (axon_cuda_memtype_of(local, &info) != MPI_SUCCESS || info.type != AXON_CUDA_MEMTYPE_HOST)
            c->errors++;
        if (axon_cuda_memtype_of(c->host + iter % 4096, &info) != MPI_SUCCESS || info.type != AXON_CUDA_MEMTYPE_HOST)
            c->errors++;
    }
    return NULL;
}

/* Every kind's table is complete (a caller never finds a hole), and the host kind refuses what only a
 * device has, so the layers above ask without testing the kind first. */
START_TEST(test_memkind_table)
{
    for (int k = 0; k < AXON_MEMKIND_COUNT; k++) {
        const struct axon_memkind_ops *ops = axon_memkind_get((enum axon_memkind)k);
        ck_assert_ptr_nonnull(ops);
        /* The entries are function pointers side by side after the name. */
        void (*const *fn)(void) = (void (*const *)(void))((const char *)ops + offsetof(struct axon_memkind_ops, init));
        size_t n = (sizeof(*ops) - offsetof(struct axon_memkind_ops, init)) / sizeof(*fn);
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(fn[i] != NULL, "kind %s: entry %zu is missing", ops->name, i);
    }
    ck_assert_ptr_null(axon_memkind_get(AXON_MEMKIND_COUNT));

    struct axon_memkind_info host;
    axon_memkind_set_host(&host);
    ck_assert(axon_memkind_is_host(&host));
    ck_assert_ptr_null(axon_memkind_bounce_get(64, &host));
    ck_assert(!axon_memkind_ipc_available(AXON_MEMKIND_HOST));
    ck_assert(!axon_memkind_kernels_available(AXON_MEMKIND_HOST));
    ck_assert_int_eq(axon_memkind_reduce_kernel(AXON_MEMKIND_HOST, "sum_f32"), -1);
    ck_assert_ptr_null(axon_memkind_scratch_get(AXON_MEMKIND_HOST, 64, 0));
    _Alignas(16) unsigned char room[AXON_MEMKIND_IPC_DESC_MAX];
    struct axon_memkind_ipc_desc *d = (struct axon_memkind_ipc_desc *)room;
    char buf[64] = {0};
    ck_assert_int_eq(axon_memkind_ipc_export(buf, sizeof(buf), &host, false, true, d), MPI_ERR_UNSUPPORTED_OPERATION);
    ck_assert_int_eq(axon_memkind_fold_run(AXON_MEMKIND_HOST, 0, NULL, 0, NULL, 0, 0, 0), MPI_ERR_UNSUPPORTED_OPERATION);
    ck_assert_int_eq(axon_memkind_copy(AXON_MEMKIND_HOST, buf + 32, "abc", 4, -1), MPI_SUCCESS);
    ck_assert_str_eq(buf + 32, "abc");

    /* A descriptor from a peer that names no kind this build knows is refused, never followed. */
    memset(room, 0, sizeof(room));
    d->kind = AXON_MEMKIND_COUNT + 3;
    d->bytes = 8;
    uint64_t bytes = 0;
    ck_assert(!axon_memkind_ipc_desc_check(room, axon_memkind_ipc_desc_bytes(0), &bytes));
    ck_assert_int_eq(axon_memkind_ipc_copy_from(1, d, buf, 8, &host), MPI_ERR_UNSUPPORTED_OPERATION);
    void *local = buf;
    ck_assert_int_eq(axon_memkind_ipc_map_peer(1, d, 0, &local), MPI_ERR_UNSUPPORTED_OPERATION);
    ck_assert_ptr_null(local);
    d->kind = AXON_MEMKIND_CUDA;
    ck_assert(axon_memkind_ipc_desc_check(room, axon_memkind_ipc_desc_bytes(0), &bytes));
    ck_assert_int_eq((int)bytes, 8);
    d->kind = AXON_MEMKIND_HOST; /* host memory is never described: a copy of it would travel instead */
    ck_assert(!axon_memkind_ipc_desc_check(room, axon_memkind_ipc_desc_bytes(0), &bytes));
}
END_TEST

START_TEST(test_threads)
{
    fake_setup();
    fake_install();
    static struct churn c;
    memset(&c, 0, sizeof(c));
    c.stable[0] = fake_alloc_at(FAKE_DEVICE, 0, 8192, 0);
    c.stable[1] = fake_alloc_at(FAKE_MANAGED, 16384, 8192, 1);
    c.stable[2] = fake_alloc_at(FAKE_PINNED, 32768, 8192, 0);
    c.moving = fake_alloc_at(FAKE_DEVICE, 65536, 4096, 0);
    c.host = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    pthread_t t[8];
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn_reader, &c), 0);
    for (int round = 0; round < 2000; round++) {
        /* Free, then move the floor: from now on the old id may not be served to a call that starts. */
        pthread_mutex_lock(&fake_lock);
        c.moving->buffer_id = fake_next_id++;
        pthread_mutex_unlock(&fake_lock);
        atomic_store(&c.moving_min_id, c.moving->buffer_id);
        usleep(5);
    }
    atomic_store(&c.stop, true);
    for (int i = 0; i < 8; i++)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(c.errors, 0);
    axon_cuda_finalize();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuda_memtype");
    TCase *tc = tcase_create("cuda_memtype");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_loading_decisions);
    tcase_add_test(tc, test_install_failures);
    tcase_add_test(tc, test_devices);
    tcase_add_test(tc, test_host_without_driver_calls);
    tcase_add_test(tc, test_stack_is_per_thread);
    tcase_add_test(tc, test_host_pages_until_unmapped);
    tcase_add_test(tc, test_current_context_counts);
    tcase_add_test(tc, test_device_cache_and_validation);
    tcase_add_test(tc, test_pinned_pool);
    tcase_add_test(tc, test_vmm);
    tcase_add_test(tc, test_vmm_without_block_ids);
    tcase_add_test(tc, test_copies);
    tcase_add_test(tc, test_memkind_table);
    tcase_add_test(tc, test_threads);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
