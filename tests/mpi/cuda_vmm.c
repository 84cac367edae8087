/* Point-to-point from GPU memory made with the VMM calls (cuMemCreate, cuMemMap side by side in one
 * reservation, as PyTorch's expandable segments grow): rank 0 sends, rank 1 receives (other ranks
 * idle). Messages inside one allocation, across two (starting in the middle of one), across three, and
 * the whole range; into cuMemAlloc memory, host memory and the receiver's own VMM range; host data into
 * a VMM range. Then the sender unmaps and releases its middle allocation, creates another at the same
 * address with new bytes, and sends again: the receiver must read the new bytes.
 *
 * Counted on the fake driver (tests/fakecuda): after each message the receiver checks how many
 * allocations it imported (cuMemImportFromShareableHandle) and the sender how many it exported and that
 * it copied nothing off its GPU, against what the mode (argv[1]) expects: "ipc" (the default cache: each
 * allocation imported once), "cache1" (AXON_CUDA_IPC_CACHE_MAX=1: every allocation but the last one
 * used is imported again) or "staged" (AXON_CUDA_IPC=0, or no way to pass fds: nothing imported, the
 * sender copies to the host). Skipped (77) without a driver that has the VMM calls. */
#include "axon_test.h"
#include "axon_test_cuda.h"
#include "tests/fakecuda/fakecuda.h"

#include <stdbool.h>
#include <stdint.h>

/* cuda.h's VMM structures, spelled out with its ABI (the test builds without cuda.h). */
struct vmm_location {
    int type;          /* CU_MEM_LOCATION_TYPE_DEVICE = 1 */
    int id;
};
struct vmm_prop {
    int type;          /* CU_MEM_ALLOCATION_TYPE_PINNED = 1 */
    int handle_types;  /* CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 1 */
    struct vmm_location location;
    void *win32;
    unsigned char flags[8];
};
struct vmm_access {
    struct vmm_location location;
    int flags;         /* CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3 */
};

static int one_node; /* ranks 0 and 1, which exchange the messages, share a node: IPC is possible */
static struct {
    test_cu_result (*granularity)(size_t *g, const struct vmm_prop *prop, int option);
    test_cu_result (*reserve)(test_cu_ptr *p, size_t size, size_t align, test_cu_ptr addr, unsigned long long flags);
    test_cu_result (*create)(unsigned long long *h, size_t size, const struct vmm_prop *prop, unsigned long long flags);
    test_cu_result (*map)(test_cu_ptr p, size_t size, size_t offset, unsigned long long h, unsigned long long flags);
    test_cu_result (*unmap)(test_cu_ptr p, size_t size);
    test_cu_result (*release)(unsigned long long h);
    test_cu_result (*set_access)(test_cu_ptr p, size_t size, const struct vmm_access *a, size_t count);
} vmm;

static fakecuda_calls_fn calls;
static fakecuda_copy_stats_fn copy_stats;
static size_t gran;
static int device;

static struct vmm_prop prop_fd(void)
{
    struct vmm_prop p;
    memset(&p, 0, sizeof(p));
    p.type = 1;
    p.handle_types = 1;
    p.location.type = 1;
    p.location.id = device;
    return p;
}

/* Allocation i of a range at base: created, mapped at base + i * gran, readable and writable here. */
static unsigned long long map_one(test_cu_ptr base, int i)
{
    struct vmm_prop prop = prop_fd();
    unsigned long long h;
    TEST_CU(vmm.create(&h, gran, &prop, 0));
    TEST_CU(vmm.map(base + (size_t)i * gran, gran, 0, h, 0));
    struct vmm_access a = {{1, device}, 3};
    TEST_CU(vmm.set_access(base + (size_t)i * gran, gran, &a, 1));
    return h;
}

static unsigned char pattern(unsigned seed, size_t k)
{
    return (unsigned char)(seed * 31 + k * 7 + k / 4093);
}

static unsigned long long count(const char *name)
{
    return calls ? calls(name) : 0;
}

static unsigned long long dtoh(void)
{
    struct fakecuda_copy_stats s = {0};
    if (copy_stats)
        copy_stats(&s);
    return s.dtoh + s.dtod;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    one_node = axon_test_same_node(0, size > 1 ? 1 : 0);
    const char *mode = argc > 1 ? argv[1] : "ipc";
    device = test_cuda_setup();
    vmm.granularity = test_cuda_sym("cuMemGetAllocationGranularity");
    vmm.reserve = test_cuda_sym("cuMemAddressReserve");
    vmm.create = test_cuda_sym("cuMemCreate");
    vmm.map = test_cuda_sym("cuMemMap");
    vmm.unmap = test_cuda_sym("cuMemUnmap");
    vmm.release = test_cuda_sym("cuMemRelease");
    vmm.set_access = test_cuda_sym("cuMemSetAccess");
    calls = (fakecuda_calls_fn)test_cuda_sym(FAKECUDA_CALLS_SYMBOL);
    copy_stats = (fakecuda_copy_stats_fn)test_cuda_sym(FAKECUDA_COPY_STATS_SYMBOL);
    if (!vmm.granularity || !vmm.reserve || !vmm.create || !vmm.map || !vmm.unmap || !vmm.release ||
        !vmm.set_access || size < 2) {
        if (rank == 0)
            printf("SKIP: no VMM calls in the driver, or fewer than 2 ranks\n");
        MPI_Finalize();
        return 77;
    }
    bool counted = calls && copy_stats; /* the fake: its counts say which path moved the data */
    struct vmm_prop prop = prop_fd();
    TEST_CU(vmm.granularity(&gran, &prop, 0));

    /* The sender's range: three allocations side by side, filled with seed 1. The receiver's: two. */
    test_cu_ptr base = 0;
    unsigned long long h[3] = {0};
    size_t total = 3 * gran;
    unsigned char *host = malloc(total), *got = malloc(total);
    if (rank == 0 || rank == 1) {
        TEST_CU(vmm.reserve(&base, 4 * gran, 0, 0, 0));
        for (int i = 0; i < (rank == 0 ? 3 : 2); i++)
            h[i] = map_one(base, i);
    }
    if (rank == 0) {
        for (size_t k = 0; k < total; k++)
            host[k] = pattern(1, k);
        TEST_CU(test_cuda_from_host((void *)(uintptr_t)base, host, total));
    }
    void *dev_recv = rank == 1 ? test_cuda_malloc(total) : NULL;

    /* The messages: offset and length in the sender's range; where they land; what each adds to the
     * receiver's imports in each mode (ipc, cache1) and to the sender's exports. */
    enum { TO_DEVICE, TO_HOST, TO_VMM };
    static const struct {
        const char *what;
        size_t off_g2, off_b;   /* offset: off_g2 half-granules plus off_b bytes */
        size_t len_g2, len_b;   /* length, the same way */
        int to;
        int imports_ipc, imports_cache1, exports;
        bool remap;             /* first re-create the middle allocation (seed 2) */
    } msgs[] = {
        {"inside one allocation", 0, 100, 0, 1000, TO_DEVICE, 1, 1, 1, false},
        {"inside one allocation, again (cached)", 0, 100, 0, 1000, TO_HOST, 0, 0, 0, false},
        {"across two, from the middle of the first", 2, -(size_t)1000, 0, 65536, TO_DEVICE, 1, 1, 1, false},
        {"across two, again", 2, -(size_t)1000, 0, 65536, TO_HOST, 0, 2, 0, false},
        {"across three", 1, 0, 4, 0, TO_DEVICE, 1, 3, 1, false},
        {"across three, again", 1, 0, 4, 0, TO_HOST, 0, 3, 0, false},
        {"the whole range", 0, 0, 6, 0, TO_DEVICE, 0, 3, 0, false},
        {"across two after the middle allocation was re-created", 2, -(size_t)1000, 0, 65536, TO_DEVICE, 1, 2, 1,
         true},
        {"across three into the receiver's VMM range", 1, 0, 3, 5, TO_VMM, 0, 3, 0, false},
    };
    /* Across nodes every GPU message is staged, whatever the mode. */
    bool staged = strcmp(mode, "staged") == 0 || !one_node, cache1 = strcmp(mode, "cache1") == 0;

    for (size_t m = 0; m < sizeof(msgs) / sizeof(msgs[0]); m++) {
        size_t off = msgs[m].off_g2 * (gran / 2) + msgs[m].off_b, len = msgs[m].len_g2 * (gran / 2) + msgs[m].len_b;
        if (rank == 0 && msgs[m].remap) {
            /* Unmapped and released: a real driver frees the memory once no one holds it; a new
             * allocation at the same address gets a new block id and new bytes. */
            TEST_CU(vmm.unmap(base + gran, gran));
            TEST_CU(vmm.release(h[1]));
            h[1] = map_one(base, 1);
            for (size_t k = 0; k < gran; k++)
                host[gran + k] = pattern(2, gran + k);
            TEST_CU(test_cuda_from_host((void *)(uintptr_t)(base + gran), host + gran, gran));
        }
        if (rank == 0) {
            unsigned long long e0 = count("cuMemExportToShareableHandle"), c0 = dtoh();
            MPI_Send((void *)(uintptr_t)(base + off), (int)len, MPI_BYTE, 1, (int)m, MPI_COMM_WORLD);
            unsigned long long e = count("cuMemExportToShareableHandle") - e0, c = dtoh() - c0;
            unsigned long long want = staged ? 0 : (unsigned long long)msgs[m].exports;
            if (counted && (e != want || (staged ? c == 0 : c != 0))) {
                printf("FAILED: %s: %llu exports (expected %llu), %llu copies off the GPU (%s)\n", msgs[m].what, e,
                       want, c, staged ? "expected some" : "expected none");
                failures++;
            }
        } else if (rank == 1) {
            unsigned long long i0 = count("cuMemImportFromShareableHandle");
            void *dst = msgs[m].to == TO_DEVICE ? dev_recv : msgs[m].to == TO_HOST ? (void *)got
                                                                                    : (void *)(uintptr_t)(base + 7);
            MPI_Status st;
            MPI_Recv(dst, (int)total, MPI_BYTE, 0, (int)m, MPI_COMM_WORLD, &st);
            int n;
            MPI_Get_count(&st, MPI_BYTE, &n);
            if (msgs[m].to != TO_HOST)
                TEST_CU(test_cuda_to_host(got, dst, len));
            unsigned long long imp = count("cuMemImportFromShareableHandle") - i0;
            unsigned long long want = staged ? 0 : (unsigned long long)(cache1 ? msgs[m].imports_cache1
                                                                               : msgs[m].imports_ipc);
            if (counted && imp != want) {
                printf("FAILED: %s: %llu imports, expected %llu\n", msgs[m].what, imp, want);
                failures++;
            }
            if ((size_t)n != len) {
                printf("FAILED: %s: %d bytes, expected %zu\n", msgs[m].what, n, len);
                failures++;
            }
            for (size_t k = 0; k < len && (size_t)n == len; k++) {
                size_t at = off + k;
                unsigned seed = msgs[m].remap || m > 7 ? (at >= gran && at < 2 * gran ? 2 : 1) : 1;
                if (got[k] != pattern(seed, at)) {
                    printf("FAILED: %s: byte %zu is %u, expected %u%s\n", msgs[m].what, k, got[k],
                           pattern(seed, at), seed == 2 ? " (stale data of the released allocation?)" : "");
                    failures++;
                    break;
                }
            }
        }
    }
    /* Host data into the receiver's VMM range, across its two allocations. */
    size_t len = gran + 12345;
    if (rank == 0) {
        MPI_Send(host + 3, (int)len, MPI_BYTE, 1, 99, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv((void *)(uintptr_t)(base + 5), (int)len, MPI_BYTE, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        TEST_CU(test_cuda_to_host(got, (void *)(uintptr_t)(base + 5), len));
        for (size_t k = 0; k < len; k++)
            if (got[k] != pattern(k + 3 >= gran && k + 3 < 2 * gran ? 2 : 1, k + 3)) {
                printf("FAILED: host to VMM: byte %zu is %u\n", k, got[k]);
                failures++;
                break;
            }
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("cuda_vmm: ok\n");
    free(host);
    free(got);
    MPI_Finalize();
    return all ? 1 : 0;
}
