/* The fake driver's GPU: what the reduction kernels of Axon's fatbin (cuda_support/
 * axon_cuda_reduce_kernels.cu) compute, done on the CPU when the fake "launches" one. A kernel is known
 * by its name, axon_reduce_<op>_<type> (and axon_copy_u8, the small IPC copies'); this file owns the table of the names it can run and a plain
 * reference loop for each, written from MPI's definitions (not from Axon's host loops, so a test that
 * compares a GPU reduction with a host reference compares two implementations). The fake opens the
 * device memory for the CPU around the call (axon_fakecuda.c). */
#include "tests/fakecuda/axon_fakecuda_kernels.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    float re, im;
} fk_c32;
typedef struct {
    double re, im;
} fk_c64;

/* One loop per (op, type), x the incoming element, y the one in place. memcpy loads and stores: the
 * fake's buffers need not be aligned for the type (a packed pair's value is not). */
#define FK_LOOP(name, T, expr)                                                                       \
    static void fk_##name(const void *in_, void *io_, unsigned long long n)                          \
    {                                                                                                \
        const unsigned char *in = in_;                                                               \
        unsigned char *io = io_;                                                                     \
        for (unsigned long long i = 0; i < n; i++) {                                                 \
            T x, y, r;                                                                               \
            memcpy(&x, in + i * sizeof(T), sizeof(T));                                               \
            memcpy(&y, io + i * sizeof(T), sizeof(T));                                               \
            r = expr; /* converted to T as C converts on assignment */                               \
            memcpy(io + i * sizeof(T), &r, sizeof(T));                                               \
        }                                                                                            \
    }
#define FK_ORDERED(s, T) FK_LOOP(max_##s, T, x > y ? x : y) FK_LOOP(min_##s, T, x < y ? x : y)
/* Integer sums and products wrap (the unsigned type of the width). */
#define FK_UINT(s, T)                                                                                \
    FK_LOOP(sum_##s, T, (uint64_t)x + (uint64_t)y) FK_LOOP(prod_##s, T, (uint64_t)x * (uint64_t)y)   \
    FK_LOOP(band_##s, T, x & y) FK_LOOP(bor_##s, T, x | y) FK_LOOP(bxor_##s, T, x ^ y)               \
    FK_LOOP(land_##s, T, x && y) FK_LOOP(lor_##s, T, x || y) FK_LOOP(lxor_##s, T, !x != !y)
#define FK_FLOAT(s, T) FK_ORDERED(s, T) FK_LOOP(sum_##s, T, x + y) FK_LOOP(prod_##s, T, x * y)

FK_ORDERED(i8, int8_t)
FK_ORDERED(u8, uint8_t)
FK_ORDERED(i16, int16_t)
FK_ORDERED(u16, uint16_t)
FK_ORDERED(i32, int32_t)
FK_ORDERED(u32, uint32_t)
FK_ORDERED(i64, int64_t)
FK_ORDERED(u64, uint64_t)
FK_UINT(u8, uint8_t)
FK_UINT(u16, uint16_t)
FK_UINT(u32, uint32_t)
FK_UINT(u64, uint64_t)
FK_FLOAT(f32, float)
FK_FLOAT(f64, double)

/* Half precision as the GPU's __hadd and __hmul compute it: correctly rounded, which float arithmetic
 * rounded once to binary16 gives (GCC's _Float16 does just that). bfloat16: a float's upper half, the
 * float result rounded to nearest even. max and min return an operand's own bits. */
typedef uint16_t fk_bits16;
static float fk_bf16_to_float(fk_bits16 b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static fk_bits16 fk_float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu))
        return (fk_bits16)(u >> 16 | 0x40u);
    uint32_t lower = u & 0xffffu, upper = u >> 16;
    if (lower > 0x8000u || (lower == 0x8000u && (upper & 1u)))
        upper++;
    return (fk_bits16)upper;
}

FK_LOOP(max_bf16, fk_bits16, fk_bf16_to_float(x) > fk_bf16_to_float(y) ? x : y)
FK_LOOP(min_bf16, fk_bits16, fk_bf16_to_float(x) < fk_bf16_to_float(y) ? x : y)
FK_LOOP(sum_bf16, fk_bits16, fk_float_to_bf16(fk_bf16_to_float(x) + fk_bf16_to_float(y)))
FK_LOOP(prod_bf16, fk_bits16, fk_float_to_bf16(fk_bf16_to_float(x) * fk_bf16_to_float(y)))
#if defined(__FLT16_MAX__)
FK_LOOP(max_f16, _Float16, x > y ? x : y)
FK_LOOP(min_f16, _Float16, x < y ? x : y)
FK_LOOP(sum_f16, _Float16, (float)x + (float)y)
FK_LOOP(prod_f16, _Float16, (float)x * (float)y)
#define FK_HAVE_F16 1
#endif

#define FK_COMPLEX(s, T)                                                                             \
    FK_LOOP(sum_##s, T, ((T){x.re + y.re, x.im + y.im}))                                             \
    FK_LOOP(prod_##s, T, ((T){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re}))
FK_COMPLEX(c32, fk_c32)
FK_COMPLEX(c64, fk_c64)

/* MAXLOC and MINLOC on packed {value, index} pairs: the better value wins with its index, equal values
 * keep the smaller index (MPI 4.1 section 6.9.4). */
#define FK_PAIR(name, V, I, better)                                                                  \
    static void fk_##name(const void *in_, void *io_, unsigned long long n)                          \
    {                                                                                                \
        const unsigned char *in = in_;                                                               \
        unsigned char *io = io_;                                                                     \
        const size_t size = sizeof(V) + sizeof(I);                                                   \
        for (unsigned long long k = 0; k < n; k++) {                                                 \
            V xv, yv;                                                                                \
            I xi, yi;                                                                                \
            memcpy(&xv, in + k * size, sizeof(V));                                                   \
            memcpy(&xi, in + k * size + sizeof(V), sizeof(I));                                       \
            memcpy(&yv, io + k * size, sizeof(V));                                                   \
            memcpy(&yi, io + k * size + sizeof(V), sizeof(I));                                       \
            if (xv better yv || (xv == yv && xi < yi)) {                                             \
                if (xv != yv)                                                                        \
                    memcpy(io + k * size, &xv, sizeof(V));                                           \
                memcpy(io + k * size + sizeof(V), &xi, sizeof(I));                                   \
            }                                                                                        \
        }                                                                                            \
    }
#define FK_PAIRS(s, V, I) FK_PAIR(maxloc_##s, V, I, >) FK_PAIR(minloc_##s, V, I, <)
FK_PAIRS(float_int, float, int32_t)
FK_PAIRS(double_int, double, int32_t)
FK_PAIRS(long_int, int64_t, int32_t)
FK_PAIRS(short_int, int16_t, int32_t)
FK_PAIRS(2int, int32_t, int32_t)
FK_PAIRS(2real, float, float)
FK_PAIRS(2double, double, double)

/* The copy kernel of the small IPC messages (axon_copy_u8): out takes in's n bytes. */
static void fk_copy_u8(const void *in, void *out, unsigned long long n)
{
    memmove(out, in, (size_t)n);
}

#define FK_K(name) {"axon_reduce_" #name, fk_##name}
#define FK_KO(s) FK_K(max_##s), FK_K(min_##s)
#define FK_KU(s) FK_K(sum_##s), FK_K(prod_##s), FK_K(band_##s), FK_K(bor_##s), FK_K(bxor_##s), \
                 FK_K(land_##s), FK_K(lor_##s), FK_K(lxor_##s)
#define FK_KF(s) FK_KO(s), FK_K(sum_##s), FK_K(prod_##s)
#define FK_KP(s) FK_K(maxloc_##s), FK_K(minloc_##s)

static const struct fk_kernel fk_kernels[] = {
    FK_KO(i8), FK_KO(u8), FK_KO(i16), FK_KO(u16), FK_KO(i32), FK_KO(u32), FK_KO(i64), FK_KO(u64),
    FK_KU(u8), FK_KU(u16), FK_KU(u32), FK_KU(u64),
    FK_KF(f32), FK_KF(f64), FK_KF(bf16),
#ifdef FK_HAVE_F16
    FK_KF(f16),
#endif
    FK_K(sum_c32), FK_K(prod_c32), FK_K(sum_c64), FK_K(prod_c64),
    FK_KP(float_int), FK_KP(double_int), FK_KP(long_int), FK_KP(short_int), FK_KP(2int), FK_KP(2real),
    FK_KP(2double), {"axon_copy_u8", fk_copy_u8},
};

const struct fk_kernel *fk_kernel_find(const char *name)
{
    for (size_t i = 0; i < sizeof(fk_kernels) / sizeof(fk_kernels[0]); i++)
        if (strcmp(fk_kernels[i].name, name) == 0)
            return &fk_kernels[i];
    return NULL;
}

size_t fk_kernel_element_size(const struct fk_kernel *k)
{
    static const struct {
        const char *suffix;
        size_t size;
    } sizes[] = {
        {"_i8", 1}, {"_u8", 1}, {"_i16", 2}, {"_u16", 2}, {"_i32", 4}, {"_u32", 4}, {"_i64", 8}, {"_u64", 8},
        {"_f16", 2}, {"_bf16", 2}, {"_f32", 4}, {"_f64", 8}, {"_c32", 8}, {"_c64", 16}, {"_float_int", 8}, {"_double_int", 12},
        {"_long_int", 12}, {"_short_int", 6}, {"_2int", 8}, {"_2real", 8}, {"_2double", 16},
    };
    size_t len = strlen(k->name);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t sl = strlen(sizes[i].suffix);
        /* No suffix of the table ends another, so the first match is the type. */
        if (len > sl && strcmp(k->name + len - sl, sizes[i].suffix) == 0)
            return sizes[i].size;
    }
    return 0;
}
