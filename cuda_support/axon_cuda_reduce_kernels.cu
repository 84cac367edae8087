/* The GPU reduction kernels: inout[i] = in[i] op inout[i] over n packed elements, one kernel per
 * (operation, element type) of cuda_support/axon_cuda_reduce_list.h, named axon_reduce_<op>_<type> with
 * C linkage so the library finds them by name (cuModuleGetFunction); and for each the fold
 * axon_fold_<op>_<type>: out[k][i] = in[0][i] op ... op in[nin - 1][i] for every output k. nvcc builds this file into a fatbin
 * (SASS for the GPUs we test on, PTX for newer ones to compile at load) that the library embeds and
 * loads with cuModuleLoadData (cuda_support/axon_cuda_reduce.c): no CUDA runtime, no host code here.
 *
 * The semantics are the host loops' (coll/axon_coll_op_predefined.c): in holds the lower ranks'
 * contribution; sums, products, bitwise and logical operations on integers run on the unsigned type of
 * the width; MAXLOC/MINLOC keep the smaller index on equal values. Each kernel is a grid-stride loop, so
 * any grid covers any n, and the launch sizes the grid to the GPU rather than to n. Pairs are packed
 * (value then index, no padding: MPI_DOUBLE_INT is 12 bytes), so their fields are loaded and stored
 * through memcpy, which the compiler turns into loads of the width the alignment allows. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "axon_cuda_reduce_list.h"

typedef int8_t axon_t_i8;
typedef uint8_t axon_t_u8;
typedef int16_t axon_t_i16;
typedef uint16_t axon_t_u16;
typedef int32_t axon_t_i32;
typedef uint32_t axon_t_u32;
typedef int64_t axon_t_i64;
typedef uint64_t axon_t_u64;
typedef __half axon_t_f16;
typedef __nv_bfloat16 axon_t_bf16;
typedef float axon_t_f32;
typedef double axon_t_f64;

/* C's float _Complex and double _Complex: two values, real part first, aligned as the value. */
template <class R> struct axon_complex {
    R re, im;
};
typedef axon_complex<float> axon_t_c32;
typedef axon_complex<double> axon_t_c64;

/* The operations, x from the lower ranks, y the value in place. */
template <class T> struct axon_f_max {
    __device__ static T f(T x, T y) { return x > y ? x : y; }
};
template <class T> struct axon_f_min {
    __device__ static T f(T x, T y) { return x < y ? x : y; }
};
/* "+ 0u" and "* 1u" keep narrow unsigned types from being promoted to int, whose products overflow. */
template <class T> struct axon_f_sum {
    __device__ static T f(T x, T y) { return (T)(x + 0u + y); }
};
template <class T> struct axon_f_prod {
    __device__ static T f(T x, T y) { return (T)(x * 1u * y); }
};
template <> struct axon_f_sum<float> {
    __device__ static float f(float x, float y) { return x + y; }
};
template <> struct axon_f_prod<float> {
    __device__ static float f(float x, float y) { return x * y; }
};
template <> struct axon_f_sum<double> {
    __device__ static double f(double x, double y) { return x + y; }
};
template <> struct axon_f_prod<double> {
    __device__ static double f(double x, double y) { return x * y; }
};
/* Half and bfloat16: the GPU's own correctly rounded operations (the host computes in float and rounds
 * once, which gives the same bits). max and min keep the winner's bits. The intrinsics are overloaded
 * for both types. */
template <class H> struct axon_h_sum {
    __device__ static H f(H x, H y) { return __hadd(x, y); }
};
template <class H> struct axon_h_prod {
    __device__ static H f(H x, H y) { return __hmul(x, y); }
};
template <class H> struct axon_h_max {
    __device__ static H f(H x, H y) { return __hgt(x, y) ? x : y; }
};
template <class H> struct axon_h_min {
    __device__ static H f(H x, H y) { return __hlt(x, y) ? x : y; }
};
#define AXON_HALF_OPS(H)                                                                             \
    template <> struct axon_f_sum<H> : axon_h_sum<H> {};                                             \
    template <> struct axon_f_prod<H> : axon_h_prod<H> {};                                           \
    template <> struct axon_f_max<H> : axon_h_max<H> {};                                             \
    template <> struct axon_f_min<H> : axon_h_min<H> {};
AXON_HALF_OPS(__half)
AXON_HALF_OPS(__nv_bfloat16)

template <class R> struct axon_f_sum<axon_complex<R> > {
    __device__ static axon_complex<R> f(axon_complex<R> x, axon_complex<R> y)
    {
        axon_complex<R> z = {x.re + y.re, x.im + y.im};
        return z;
    }
};
template <class R> struct axon_f_prod<axon_complex<R> > {
    __device__ static axon_complex<R> f(axon_complex<R> x, axon_complex<R> y)
    {
        axon_complex<R> z = {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
        return z;
    }
};
template <class T> struct axon_f_band {
    __device__ static T f(T x, T y) { return (T)(x & y); }
};
template <class T> struct axon_f_bor {
    __device__ static T f(T x, T y) { return (T)(x | y); }
};
template <class T> struct axon_f_bxor {
    __device__ static T f(T x, T y) { return (T)(x ^ y); }
};
template <class T> struct axon_f_land {
    __device__ static T f(T x, T y) { return (T)((x != 0) & (y != 0)); }
};
template <class T> struct axon_f_lor {
    __device__ static T f(T x, T y) { return (T)((x != 0) | (y != 0)); }
};
template <class T> struct axon_f_lxor {
    __device__ static T f(T x, T y) { return (T)((x != 0) ^ (y != 0)); }
};

template <class T, class F>
__device__ __forceinline__ void axon_reduce_loop(const void *in_, void *inout_, unsigned long long n)
{
    const T *__restrict__ in = (const T *)in_;
    T *__restrict__ io = (T *)inout_;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        io[i] = F::f(in[i], io[i]);
}

#define AXON_KERNEL(op, s)                                                                           \
    extern "C" __global__ void axon_reduce_##op##_##s(const void *in, void *inout, unsigned long long n) \
    {                                                                                                \
        axon_reduce_loop<axon_t_##s, axon_f_##op<axon_t_##s> >(in, inout, n);                         \
    }
AXON_CUDA_REDUCE_KERNELS(AXON_KERNEL)

/* MAXLOC/MINLOC: the better value wins with its index; equal values keep the smaller index. */
template <class V, class I, bool MAX>
__device__ __forceinline__ void axon_reduce_pairs(const void *in_, void *inout_, unsigned long long n)
{
    const unsigned char *in = (const unsigned char *)in_;
    unsigned char *io = (unsigned char *)inout_;
    const size_t size = sizeof(V) + sizeof(I);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long k = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
        V xv, yv;
        I xi, yi;
        memcpy(&xv, in + k * size, sizeof(V));
        memcpy(&xi, in + k * size + sizeof(V), sizeof(I));
        memcpy(&yv, io + k * size, sizeof(V));
        memcpy(&yi, io + k * size + sizeof(V), sizeof(I));
        if (MAX ? xv > yv : xv < yv) {
            memcpy(io + k * size, &xv, sizeof(V));
            memcpy(io + k * size + sizeof(V), &xi, sizeof(I));
        } else if (xv == yv && xi < yi) {
            memcpy(io + k * size + sizeof(V), &xi, sizeof(I));
        }
    }
}

#define AXON_PAIR_KERNEL(op, s, V, I)                                                                \
    extern "C" __global__ void axon_reduce_##op##_##s(const void *in, void *inout, unsigned long long n) \
    {                                                                                                \
        axon_reduce_pairs<V, I, AXON_PAIR_IS_MAX_##op>(in, inout, n);                                \
    }
#define AXON_PAIR_IS_MAX_maxloc true
#define AXON_PAIR_IS_MAX_minloc false
AXON_CUDA_REDUCE_PAIR_KERNELS(AXON_PAIR_KERNEL)

/* The folds: element i of every input, reduced in the inputs' order, then stored to every output. An
 * output may be an input (in place): each thread reads all of its element before it writes it. Each
 * step is the pairwise kernel's, acc = in[k] op acc, so a fold gives the bits that pairwise kernels
 * applied in the same order give (max of +0 and -0, a sum's rounding). */
template <class T, class F>
__device__ __forceinline__ void axon_fold_loop(const axon_cuda_fold_args &a, unsigned long long n)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        T acc = ((const T *)a.in[0])[i];
        for (unsigned k = 1; k < a.nin; k++)
            acc = F::f(((const T *)a.in[k])[i], acc);
        for (unsigned k = 0; k < a.nout; k++)
            ((T *)a.out[k])[i] = acc;
    }
}

#define AXON_FOLD_KERNEL(op, s)                                                                      \
    extern "C" __global__ void axon_fold_##op##_##s(axon_cuda_fold_args a, unsigned long long n)     \
    {                                                                                                \
        axon_fold_loop<axon_t_##s, axon_f_##op<axon_t_##s> >(a, n);                                   \
    }
AXON_CUDA_REDUCE_KERNELS(AXON_FOLD_KERNEL)

template <class V, class I, bool MAX>
__device__ __forceinline__ void axon_fold_pairs(const axon_cuda_fold_args &a, unsigned long long n)
{
    const size_t size = sizeof(V) + sizeof(I);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long k = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
        V av, yv;
        I ai, yi;
        memcpy(&av, (const unsigned char *)a.in[0] + k * size, sizeof(V));
        memcpy(&ai, (const unsigned char *)a.in[0] + k * size + sizeof(V), sizeof(I));
        for (unsigned j = 1; j < a.nin; j++) {
            memcpy(&yv, (const unsigned char *)a.in[j] + k * size, sizeof(V));
            memcpy(&yi, (const unsigned char *)a.in[j] + k * size + sizeof(V), sizeof(I));
            if (MAX ? yv > av : yv < av) {
                av = yv;
                ai = yi;
            } else if (yv == av && yi < ai) {
                ai = yi;
            }
        }
        for (unsigned j = 0; j < a.nout; j++) {
            memcpy((unsigned char *)a.out[j] + k * size, &av, sizeof(V));
            memcpy((unsigned char *)a.out[j] + k * size + sizeof(V), &ai, sizeof(I));
        }
    }
}

#define AXON_FOLD_PAIR_KERNEL(op, s, V, I)                                                           \
    extern "C" __global__ void axon_fold_##op##_##s(axon_cuda_fold_args a, unsigned long long n)     \
    {                                                                                                \
        axon_fold_pairs<V, I, AXON_PAIR_IS_MAX_##op>(a, n);                                          \
    }
AXON_CUDA_REDUCE_PAIR_KERNELS(AXON_FOLD_PAIR_KERNEL)

/* n bytes from src to dst (no overlap), by the grid's x dimension: 16 bytes a thread where both ends
 * allow it, else one byte a thread. */
__device__ __forceinline__ void axon_copy_span(const unsigned char *__restrict__ src, unsigned char *__restrict__ dst,
                                               unsigned long long n)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x, head = 0;
    if ((((uintptr_t)src | (uintptr_t)dst) & 15) == 0) {
        head = n & ~15ull;
        for (unsigned long long k = i; k < head / 16; k += stride)
            ((uint4 *)dst)[k] = ((const uint4 *)src)[k];
    }
    for (unsigned long long k = head + i; k < n; k += stride)
        dst[k] = src[k];
}

/* A copy of n bytes from in to out, for the small messages that CUDA IPC carries
 * (cuda_support/axon_cuda_ipc.c): one launch reads a peer process's memory and writes ours, where a
 * cuMemcpyDtoD between the two cost twice a copy within one process on the GPU machines. */
extern "C" __global__ void axon_copy_u8(const void *in, void *out, unsigned long long n)
{
    axon_copy_span((const unsigned char *)in, (unsigned char *)out, n);
}

/* The copies of a list, copy k by the blocks of row k of the grid (blockIdx.y). */
extern "C" __global__ void axon_copy_list(axon_cuda_copy_list a)
{
    const unsigned k = blockIdx.y;
    if (k < a.n)
        axon_copy_span((const unsigned char *)a.src[k], (unsigned char *)a.dst[k], a.bytes[k]);
}
