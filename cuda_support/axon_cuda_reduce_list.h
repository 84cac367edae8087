/* The GPU reduction kernels, one per (operation, element type): the names of the predefined operations'
 * loops (coll/axon_coll_op_predefined.c names them "<op>_<type>"), so the host loop and its kernel pair
 * by name. cuda_support/axon_cuda_reduce_kernels.cu instantiates one kernel "axon_reduce_<op>_<type>"
 * per entry; cuda_support/axon_cuda_reduce.c tells from the same list which loops have a kernel.
 * Element types: i8 .. u64 (sums, products, bitwise and logical operations run on the unsigned type of
 * the width, as on the host), f16 and bf16 (MPIX_C_FLOAT16, MPIX_BFLOAT16), f32, f64, c32 and c64
 * (complex float and double), and the packed
 * MAXLOC/MINLOC pairs (value then index, no padding). Long double and quad precision have none: the GPU
 * has no such arithmetic, and those reductions stay on the host. */
#ifndef AXON_CUDA_REDUCE_LIST_H
#define AXON_CUDA_REDUCE_LIST_H

/* X(op, type) for operations on one value; P(op, type, value type, index type) for the pairs. */
#define AXON_CUDA_REDUCE_ORDERED(X, s) X(max, s) X(min, s)
#define AXON_CUDA_REDUCE_ARITH(X, s) X(sum, s) X(prod, s)
#define AXON_CUDA_REDUCE_BITS(X, s) X(band, s) X(bor, s) X(bxor, s)
#define AXON_CUDA_REDUCE_LOGIC(X, s) X(land, s) X(lor, s) X(lxor, s)
#define AXON_CUDA_REDUCE_UINT(X, s)                                                                  \
    AXON_CUDA_REDUCE_ARITH(X, s) AXON_CUDA_REDUCE_BITS(X, s) AXON_CUDA_REDUCE_LOGIC(X, s)

#define AXON_CUDA_REDUCE_KERNELS(X)                                                                  \
    AXON_CUDA_REDUCE_ORDERED(X, i8) AXON_CUDA_REDUCE_ORDERED(X, u8)                                  \
    AXON_CUDA_REDUCE_ORDERED(X, i16) AXON_CUDA_REDUCE_ORDERED(X, u16)                                \
    AXON_CUDA_REDUCE_ORDERED(X, i32) AXON_CUDA_REDUCE_ORDERED(X, u32)                                \
    AXON_CUDA_REDUCE_ORDERED(X, i64) AXON_CUDA_REDUCE_ORDERED(X, u64)                                \
    AXON_CUDA_REDUCE_UINT(X, u8) AXON_CUDA_REDUCE_UINT(X, u16)                                       \
    AXON_CUDA_REDUCE_UINT(X, u32) AXON_CUDA_REDUCE_UINT(X, u64)                                      \
    AXON_CUDA_REDUCE_ORDERED(X, f16) AXON_CUDA_REDUCE_ARITH(X, f16)                                  \
    AXON_CUDA_REDUCE_ORDERED(X, bf16) AXON_CUDA_REDUCE_ARITH(X, bf16)                                \
    AXON_CUDA_REDUCE_ORDERED(X, f32) AXON_CUDA_REDUCE_ARITH(X, f32)                                  \
    AXON_CUDA_REDUCE_ORDERED(X, f64) AXON_CUDA_REDUCE_ARITH(X, f64)                                  \
    AXON_CUDA_REDUCE_ARITH(X, c32) AXON_CUDA_REDUCE_ARITH(X, c64)

/* The folds (axon_fold_<op>_<type>, one per kernel above): each element of nin inputs reduced in their
 * order and the result written to each of nout outputs, in one pass: the domain allreduce reads every
 * member's slice and writes the reduced slice into every member's result with one of them. Passed by
 * value, the same bytes in C and C++. */
#define AXON_CUDA_FOLD_MAX 16
struct axon_cuda_fold_args {
    const void *in[AXON_CUDA_FOLD_MAX];
    void *out[AXON_CUDA_FOLD_MAX];
    unsigned int nin, nout;
};

/* A list of copies for axon_copy_list, each of bytes[k] from src[k] to dst[k] (no overlaps): the domain
 * allgather and alltoall fetch their blocks from every peer with one launch. Passed by value. */
#define AXON_CUDA_COPY_LIST_MAX 16
struct axon_cuda_copy_list {
    const void *src[AXON_CUDA_COPY_LIST_MAX];
    void *dst[AXON_CUDA_COPY_LIST_MAX];
    unsigned long long bytes[AXON_CUDA_COPY_LIST_MAX];
    unsigned int n;
};

#define AXON_CUDA_REDUCE_PAIR(P, s, V, I) P(maxloc, s, V, I) P(minloc, s, V, I)
#define AXON_CUDA_REDUCE_PAIR_KERNELS(P)                                                             \
    AXON_CUDA_REDUCE_PAIR(P, float_int, float, int32_t)                                              \
    AXON_CUDA_REDUCE_PAIR(P, double_int, double, int32_t)                                            \
    AXON_CUDA_REDUCE_PAIR(P, long_int, int64_t, int32_t)                                             \
    AXON_CUDA_REDUCE_PAIR(P, short_int, int16_t, int32_t)                                            \
    AXON_CUDA_REDUCE_PAIR(P, 2int, int32_t, int32_t)                                                 \
    AXON_CUDA_REDUCE_PAIR(P, 2real, float, float)                                                    \
    AXON_CUDA_REDUCE_PAIR(P, 2double, double, double)

#endif
