"""Axon under mpi4py's MPICH-ABI build, as Python training stacks load it (tests/gpu/gpu_mpi4py.test):
the library it found, host collectives and point-to-point on NumPy arrays, pickled objects, and, where
CuPy and a GPU are there, the same calls on CuPy arrays (GPU buffers handed to Axon as device pointers).
Prints "gpu_mpi4py: ok" on rank 0 when every check passed; "SKIP: why" and exit 77 without mpi4py."""
import sys

try:
    import numpy as np
    from mpi4py import MPI
except ImportError as exc:
    print(f"SKIP: no mpi4py/NumPy here ({exc})")
    sys.exit(77)

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"rank {rank} FAILED: {what}", flush=True)


version = MPI.Get_library_version()
check("Axon" in version, f"MPI.Get_library_version() names Axon: {version!r}")

# Host buffers.
n = 1 << 20
a = np.arange(n, dtype=np.float32) + rank
r = np.empty_like(a)
comm.Allreduce(a, r, op=MPI.SUM)
want = np.arange(n, dtype=np.float32) * size + size * (size - 1) / 2
check(np.array_equal(r, want), "Allreduce of NumPy float32")
obj = comm.bcast({"rank": rank, "list": list(range(10))} if rank == 0 else None, root=0)
check(obj == {"rank": 0, "list": list(range(10))}, "bcast of a pickled object")
got = comm.allgather(rank * rank)
check(got == [k * k for k in range(size)], "allgather of pickled ints")
right, left = (rank + 1) % size, (rank - 1) % size
buf = np.empty(1000, dtype=np.int64)
req = comm.Irecv(buf, source=left, tag=7)
comm.Send(np.full(1000, rank, dtype=np.int64), dest=right, tag=7)
req.Wait()
check((buf == left).all(), "Irecv/Send ring of NumPy int64")

# GPU buffers through CuPy, where it and a GPU are there.
try:
    import cupy as cp

    gpus = cp.cuda.runtime.getDeviceCount()
except Exception:  # no CuPy, no driver or no GPU: the host part stands alone
    gpus = 0
if gpus:
    cp.cuda.Device(rank % gpus).use()
    d = cp.arange(n, dtype=cp.float32) + rank
    dr = cp.empty_like(d)
    cp.cuda.get_current_stream().synchronize()  # MPI reads the buffer: the GPU must be done with it
    comm.Allreduce(d, dr, op=MPI.SUM)
    check(bool((dr == cp.asarray(want)).all()), "Allreduce of CuPy float32 (GPU buffers)")
    h = cp.full(4096, rank, dtype=cp.float64) if rank == 0 else cp.zeros(4096, dtype=cp.float64)
    cp.cuda.get_current_stream().synchronize()
    comm.Bcast(h, root=0)
    check(bool((h == 0).all()), "Bcast of CuPy float64")
    s = cp.full(1 << 16, rank, dtype=cp.int32)
    g = cp.empty(size << 16, dtype=cp.int32)
    cp.cuda.get_current_stream().synchronize()
    comm.Allgather(s, g)
    check(bool((g.reshape(size, -1) == cp.arange(size, dtype=cp.int32)[:, None]).all()), "Allgather of CuPy int32")
    dbuf = cp.empty(1 << 20, dtype=cp.uint8)
    req = comm.Irecv(dbuf, source=left, tag=8)
    out = cp.full(1 << 20, rank, dtype=cp.uint8)
    cp.cuda.get_current_stream().synchronize()
    comm.Send(out, dest=right, tag=8)
    req.Wait()
    check(bool((dbuf == left).all()), "Irecv/Send ring of CuPy uint8 (GPU buffers)")

total = comm.allreduce(len(failures))
if rank == 0:
    print("gpu_mpi4py: ok" if total == 0 else f"gpu_mpi4py: {total} failures", f"(GPU part: {'yes' if gpus else 'no'})")
sys.exit(1 if total else 0)
