/* Windows in GPU memory, on the fake driver (its device memory faults when the CPU touches it, so a path
 * that loads or stores a window's device memory ends the test): MPI_Win_create on memory from cuMemAlloc,
 * MPI_Win_allocate whose info asks for "cuda:device" (mpi_memory_alloc_kinds; the test's own
 * cuMemcpyHtoD into the returned base fails unless it is device memory), and cuMemAlloc's memory attached
 * to a dynamic window. Node peers reach the first two through CUDA IPC, the dynamic one by messages
 * once single copies fail on it, and all by messages with AXON_RMA_SHM=0 and across nodes; a rank
 * reaches its own by device copies. Each rank puts host data and device data into its right neighbour's window, gets its left
 * neighbour's (contiguous, and strided into host memory whose gaps must stay), accumulates, and
 * fetches-and-adds and compare-and-swaps on its right neighbour's counter, in fence and lock epochs;
 * then each rank copies its window off the GPU and checks it. Sizes 1, 1000 and 100000 ints. Prints
 * "rank R: ok". Exits 77 without a driver. */
#include "axon_test.h"
#include "axon_test_cuda.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static int rank, size;

enum flavour { CREATE, ALLOCATE, DYNAMIC };
static const char *const names[] = {"create", "allocate", "dynamic"};

/* Where slot i of rank t's memory is, as a target displacement: slots (disp_unit sizeof(int)), or the
 * address in a dynamic window. */
static MPI_Aint *addrs;
static MPI_Aint disp(enum flavour f, int t, int i)
{
    return f == DYNAMIC ? addrs[t] + (MPI_Aint)sizeof(int) * i : i;
}

static void run_flavour(enum flavour f, int n)
{
    const char *name = names[f];
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* slots: [0, n) put from the host, [n, 2n) read by the left's gets, [2n, 3n) accumulated,
     * 3n the counter, [3n+1, 4n+1) put from the device, 4n+1 the rank's own (put and added to itself) */
    int slots = 4 * n + 2;
    size_t bytes = sizeof(int) * (size_t)slots;
    void *mem = NULL;
    MPI_Win win;
    if (f == ALLOCATE) {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_memory_alloc_kinds", "cuda:device");
        MPI_Win_allocate((MPI_Aint)bytes, sizeof(int), info, MPI_COMM_WORLD, &mem, &win);
        MPI_Info_free(&info);
    } else if (f == CREATE) {
        mem = test_cuda_malloc(bytes);
        MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        mem = test_cuda_malloc(bytes);
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_attach(win, mem, (MPI_Aint)bytes);
        MPI_Aint mine;
        MPI_Get_address(mem, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
    }
    if (f != DYNAMIC) {
        void *base = NULL;
        int flag = 0;
        MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
        CHECK(flag && base == mem, "%s: MPI_WIN_BASE is not the window's memory", name);
    }

    int *host = malloc(bytes);
    for (int i = 0; i < slots; i++)
        host[i] = i < n ? -1 : i < 2 * n ? rank * 1000000 + i : i < 3 * n ? 5 : i == 3 * n ? 5 : -2;
    TEST_CU(test_cuda_from_host(mem, host, bytes));
    MPI_Barrier(MPI_COMM_WORLD);

    int *put = malloc(sizeof(int) * (size_t)n), *got = malloc(sizeof(int) * (size_t)n);
    int *strided = malloc(sizeof(int) * (size_t)(2 * n)), *ones = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        put[i] = rank * 7 + i;
        got[i] = -9;
        ones[i] = 1;
    }
    for (int i = 0; i < 2 * n; i++)
        strided[i] = -9;
    for (int i = 0; i < n; i++)
        host[i] = rank * 11 + i;
    void *dput = test_cuda_malloc(sizeof(int) * (size_t)n);
    TEST_CU(test_cuda_from_host(dput, host, sizeof(int) * (size_t)n));
    MPI_Datatype every_other;
    MPI_Type_vector(n, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);

    MPI_Win_fence(0, win);
    MPI_Put(put, n, MPI_INT, right, disp(f, right, 0), n, MPI_INT, win);
    MPI_Get(got, n, MPI_INT, left, disp(f, left, n), n, MPI_INT, win);
    MPI_Get(strided, 1, every_other, left, disp(f, left, n), n, MPI_INT, win);
    MPI_Accumulate(ones, n, MPI_INT, right, disp(f, right, 2 * n), n, MPI_INT, MPI_SUM, win); /* 5 + 1 */
    MPI_Win_fence(0, win);

    int one = 1, fetched = 0, cmp = 6, swap = 40, old = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Fetch_and_op(&one, &fetched, MPI_INT, right, disp(f, right, 3 * n), MPI_SUM, win); /* 5 -> 6 */
    MPI_Win_flush(right, win);
    MPI_Compare_and_swap(&swap, &cmp, &old, MPI_INT, right, disp(f, right, 3 * n), win);   /* 6 == 6 -> 40 */
    MPI_Put(dput, n, MPI_INT, right, disp(f, right, 3 * n + 1), n, MPI_INT, win);           /* device to device */
    MPI_Win_unlock(right, win);
    int mine = 777 + rank;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    MPI_Put(&mine, 1, MPI_INT, rank, disp(f, rank, 4 * n + 1), 1, MPI_INT, win);
    MPI_Win_flush(rank, win);
    MPI_Accumulate(&one, 1, MPI_INT, rank, disp(f, rank, 4 * n + 1), 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    TEST_CU(test_cuda_to_host(host, mem, bytes));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += host[i] != left * 7 + i;
    CHECK(bad == 0, "%s n=%d: %d elements of the put wrong", name, n, bad);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += host[2 * n + i] != 6;
    CHECK(bad == 0, "%s n=%d: %d elements of the accumulate wrong", name, n, bad);
    CHECK(host[4 * n + 1] == 778 + rank, "%s n=%d: the rank's own put and add left %d", name, n, host[4 * n + 1]);
    CHECK(host[3 * n] == 40, "%s n=%d: the atomics left %d, expected 40", name, n, host[3 * n]);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += host[3 * n + 1 + i] != left * 11 + i;
    CHECK(bad == 0, "%s n=%d: %d elements of the put from device memory wrong", name, n, bad);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += got[i] != left * 1000000 + n + i;
    CHECK(bad == 0, "%s n=%d: %d elements of the get wrong", name, n, bad);
    bad = 0;
    for (int i = 0; i < 2 * n; i++)
        bad += strided[i] != (i % 2 ? -9 : left * 1000000 + n + i / 2);
    CHECK(bad == 0, "%s n=%d: %d elements of the strided get wrong (gaps included)", name, n, bad);
    CHECK(fetched == 5 && old == 6, "%s n=%d: fetch-and-op gave %d (expected 5), compare-and-swap %d (expected 6)",
          name, n, fetched, old);

    MPI_Type_free(&every_other);
    test_cuda_free(dput);
    free(host);
    free(put);
    free(got);
    free(strided);
    free(ones);
    if (f == DYNAMIC)
        MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    if (f != ALLOCATE)
        test_cuda_free(mem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_cuda_setup();
    addrs = malloc(sizeof(MPI_Aint) * (size_t)size);
    static const int sizes[] = {1, 1000, 100000};
    for (int f = CREATE; f <= DYNAMIC; f++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            run_flavour((enum flavour)f, sizes[s]);
    free(addrs);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
