/* One-sided operations whose origin and result buffers are GPU memory, on the fake driver (its device
 * memory faults when the CPU touches it, so a path that reads or writes a device pointer directly ends
 * the test). Windows are host memory of every flavour that moves data by a different path (allocated:
 * loads and stores; created: single copies, or messages with AXON_RMA_SHM=0 and across nodes). Each rank
 * puts a device buffer into its right neighbour's window, gets its left neighbour's window into a device
 * buffer (contiguous, and strided whose gaps must come back unchanged), accumulates from the device,
 * and fetches-and-adds and compare-and-swaps with device origin, compare and result. Sizes 1, 1000 and
 * 100000 ints. Prints "rank R: ok". Exits 77 without a driver. */
#include "axon_test.h"
#include "axon_test_cuda.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static int rank, size;

static void *dev_copy_of(const int *host, size_t n)
{
    void *d = test_cuda_malloc(n * sizeof(int));
    TEST_CU(test_cuda_from_host(d, host, n * sizeof(int)));
    return d;
}

static void host_copy_of(int *host, const void *dev, size_t n)
{
    TEST_CU(test_cuda_to_host(host, dev, n * sizeof(int)));
}

static void run_flavour(bool allocate, int n)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int slots = 3 * n + 2;
    int *mem;
    MPI_Win win;
    if (allocate) {
        MPI_Win_allocate((MPI_Aint)sizeof(int) * slots, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    } else {
        mem = malloc(sizeof(int) * (size_t)slots);
        MPI_Win_create(mem, (MPI_Aint)sizeof(int) * slots, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (int i = 0; i < slots; i++)
        mem[i] = i < n ? -1 : i < 2 * n ? rank * 1000000 + i : 5;
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    int *host = malloc(sizeof(int) * (size_t)(2 * n + 2));
    for (int i = 0; i < n; i++)
        host[i] = rank * 7 + i;
    void *dput = dev_copy_of(host, (size_t)n);
    for (int i = 0; i < 2 * n; i++)
        host[i] = -9;
    void *dget = dev_copy_of(host, (size_t)n);
    void *dstrided = dev_copy_of(host, (size_t)(2 * n));
    for (int i = 0; i < n; i++)
        host[i] = 1;
    void *dones = dev_copy_of(host, (size_t)n);
    MPI_Datatype every_other;
    MPI_Type_vector(n, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);

    MPI_Win_fence(0, win);
    MPI_Put(dput, n, MPI_INT, right, 0, n, MPI_INT, win);                        /* slots 0..n-1 */
    MPI_Get(dget, n, MPI_INT, left, n, n, MPI_INT, win);                         /* left's n..2n-1 */
    MPI_Get(dstrided, 1, every_other, left, n, n, MPI_INT, win);
    MPI_Accumulate(dones, n, MPI_INT, right, 2 * n, n, MPI_INT, MPI_SUM, win);   /* 5 + 1 */
    MPI_Win_fence(0, win);

    /* Atomics with device origin, compare and result, under a lock on the right neighbour. */
    int one = 1, cmp = 6, swap = 40;
    void *done = dev_copy_of(&one, 1), *dres = dev_copy_of(&one, 1);
    void *dcmp = dev_copy_of(&cmp, 1), *dswap = dev_copy_of(&swap, 1), *dold = dev_copy_of(&one, 1);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Fetch_and_op(done, dres, MPI_INT, right, 3 * n, MPI_SUM, win);           /* 5 -> 6, fetched 5 */
    MPI_Win_flush(right, win);
    MPI_Compare_and_swap(dswap, dcmp, dold, MPI_INT, right, 3 * n, win);         /* 6 == 6 -> 40 */
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += mem[i] != left * 7 + i;
    CHECK(bad == 0, "%s n=%d: %d elements of the device put wrong", allocate ? "allocate" : "create", n, bad);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += mem[2 * n + i] != 6;
    CHECK(bad == 0, "%s n=%d: %d elements of the device accumulate wrong", allocate ? "allocate" : "create", n, bad);
    CHECK(mem[3 * n] == 40, "%s n=%d: the atomics left %d, expected 40", allocate ? "allocate" : "create", n,
          mem[3 * n]);
    MPI_Win_unlock(rank, win);

    host_copy_of(host, dget, (size_t)n);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += host[i] != left * 1000000 + n + i;
    CHECK(bad == 0, "%s n=%d: %d elements of the device get wrong", allocate ? "allocate" : "create", n, bad);
    host_copy_of(host, dstrided, (size_t)(2 * n));
    bad = 0;
    for (int i = 0; i < 2 * n; i++)
        bad += host[i] != (i % 2 ? -9 : left * 1000000 + n + i / 2);
    CHECK(bad == 0, "%s n=%d: %d elements of the strided device get wrong (gaps included)",
          allocate ? "allocate" : "create", n, bad);
    int fetched, old;
    host_copy_of(&fetched, dres, 1);
    host_copy_of(&old, dold, 1);
    CHECK(fetched == 5 && old == 6, "%s n=%d: fetch-and-op gave %d (expected 5), compare-and-swap %d (expected 6)",
          allocate ? "allocate" : "create", n, fetched, old);

    MPI_Type_free(&every_other);
    void *devs[] = {dput, dget, dstrided, dones, done, dres, dcmp, dswap, dold};
    for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
        test_cuda_free(devs[i]);
    free(host);
    MPI_Win_free(&win);
    if (!allocate)
        free(mem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_cuda_setup();
    static const int sizes[] = {1, 1000, 100000};
    for (int f = 0; f < 2; f++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            run_flavour(f == 0, sizes[s]);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
