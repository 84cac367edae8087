/* The loops of the predefined reduction operations: one plain loop per (operation, element type), made
 * by macros, and the tables that pick one. A predefined datatype maps to an element kind (by its
 * builtin handle's low byte, or its pair index), and a table indexed by operation and kind gives the
 * loop or NULL where the pair is refused (MPI_ERR_OP). The pairs taken are MPI 4.1 section 6.9.2's, widened
 * to every pair that both MPICH and Open MPI reduce (a program that runs on both runs here):
 *
 *   MAX, MIN            integers (C, Fortran, multi-language AINT, OFFSET, COUNT, and characters),
 *                       floating point (with MPIX_C_FLOAT16 and MPIX_BFLOAT16)
 *   SUM, PROD           the same and complex
 *   LAND, LOR, LXOR     integers, logical (C_BOOL, CXX_BOOL, LOGICAL and its sized forms)
 *   BAND, BOR, BXOR     integers, byte
 *   MAXLOC, MINLOC      the pair types
 *
 * The standard's extensions: MPI_CHAR (a printable character to MPI) is the C char it is, signed or not
 * as the compiler has it, under every integer operation, as in both; MPI_CHARACTER is an unsigned 8-bit
 * integer (Fortran's character codes, as Open MPI orders them; MPICH orders them as signed chars);
 * logical operations take Fortran and multi-language integers (MPICH takes them all, Open MPI
 * INTEGER1, 2 and 8). What only one of the two takes stays refused: MPI_BYTE's arithmetic (Open MPI),
 * logical operations on floating point (MPICH, which takes them and then fails in its loop), the
 * sized logicals' arithmetic (Open MPI). MPI_REPLACE and MPI_NO_OP are accumulate operations:
 * coll/axon_coll_op.c refuses them to reductions, as both do. Sums, products, bitwise and logical
 * operations on integers run on the unsigned type of the same width: the bits are the same in two's
 * complement and there is no signed overflow. Pairs are packed (value then index, no padding), so their
 * loops load and store through memcpy, which the compiler turns into plain moves. */
#include "coll/axon_coll_op.h"
#include "memkind/axon_memkind.h"

#include <complex.h>
#include <limits.h>
#include <string.h>

enum axon_op_kind {
    AXON_KIND_NONE, /* not reducible by predefined operations */
    /* integers of every language */
    AXON_KIND_I8, AXON_KIND_U8, AXON_KIND_I16, AXON_KIND_U16,
    AXON_KIND_I32, AXON_KIND_U32, AXON_KIND_I64, AXON_KIND_U64,
    /* floating point, complex */
    AXON_KIND_F16, AXON_KIND_BF16, AXON_KIND_F32, AXON_KIND_F64, AXON_KIND_FLD, AXON_KIND_F128,
    AXON_KIND_C32, AXON_KIND_C64, AXON_KIND_CLD, AXON_KIND_C128,
    /* logical, byte */
    AXON_KIND_BOOL, AXON_KIND_LOGICAL, AXON_KIND_LOGICAL2, AXON_KIND_LOGICAL8, AXON_KIND_BYTE,
    /* pairs of MAXLOC/MINLOC: {value, index} */
    AXON_KIND_FLOAT_INT, AXON_KIND_DOUBLE_INT, AXON_KIND_LONG_INT, AXON_KIND_SHORT_INT,
    AXON_KIND_LDOUBLE_INT, AXON_KIND_2INT, AXON_KIND_2REAL, AXON_KIND_2DOUBLE,
    AXON_KIND_COUNT
};

/* Operation indices: the handle's low byte - 1. */
enum {
    AXON_OPI_MAX, AXON_OPI_MIN, AXON_OPI_SUM, AXON_OPI_PROD, AXON_OPI_LAND, AXON_OPI_BAND, AXON_OPI_LOR,
    AXON_OPI_BOR, AXON_OPI_LXOR, AXON_OPI_BXOR, AXON_OPI_MINLOC, AXON_OPI_MAXLOC, AXON_OPI_LOOPS
};

/* ---- loops ---------------------------------------------------------------------------------------- */

#define AXON_OP_LOOP(name, T, expr)                                                                  \
    static void axon_op_##name(const void *restrict in_, void *restrict inout_, int64_t n)          \
    {                                                                                                \
        const T *restrict in = in_;                                                                  \
        T *restrict io = inout_;                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                            \
            const T x = in[i], y = io[i];                                                            \
            io[i] = (T)(expr);                                                                       \
        }                                                                                            \
    }

/* x is the incoming operand (lower ranks), y the one in place. */
#define AXON_OP_ORDERED(s, T)                                                                        \
    AXON_OP_LOOP(max_##s, T, x > y ? x : y)                                                          \
    AXON_OP_LOOP(min_##s, T, x < y ? x : y)
#define AXON_OP_ARITH(s, T)                                                                          \
    AXON_OP_LOOP(sum_##s, T, x + y)                                                                  \
    AXON_OP_LOOP(prod_##s, T, x * y)
/* Unsigned: "* 1u" keeps narrow types from being promoted to int, whose products may overflow. */
#define AXON_OP_UARITH(s, T)                                                                         \
    AXON_OP_LOOP(sum_##s, T, x + 0u + y)                                                             \
    AXON_OP_LOOP(prod_##s, T, x * 1u * y)
#define AXON_OP_BITS(s, T)                                                                           \
    AXON_OP_LOOP(band_##s, T, x & y)                                                                 \
    AXON_OP_LOOP(bor_##s, T, x | y)                                                                  \
    AXON_OP_LOOP(bxor_##s, T, x ^ y)
#define AXON_OP_LOGIC(s, T)                                                                          \
    AXON_OP_LOOP(land_##s, T, (x != 0) & (y != 0))                                                   \
    AXON_OP_LOOP(lor_##s, T, (x != 0) | (y != 0))                                                    \
    AXON_OP_LOOP(lxor_##s, T, (x != 0) ^ (y != 0))

AXON_OP_ORDERED(i8, int8_t)
AXON_OP_ORDERED(u8, uint8_t)
AXON_OP_ORDERED(i16, int16_t)
AXON_OP_ORDERED(u16, uint16_t)
AXON_OP_ORDERED(i32, int32_t)
AXON_OP_ORDERED(u32, uint32_t)
AXON_OP_ORDERED(i64, int64_t)
AXON_OP_ORDERED(u64, uint64_t)
AXON_OP_UARITH(u8, uint8_t)
AXON_OP_UARITH(u16, uint16_t)
AXON_OP_UARITH(u32, uint32_t)
AXON_OP_UARITH(u64, uint64_t)
AXON_OP_BITS(u8, uint8_t)
AXON_OP_BITS(u16, uint16_t)
AXON_OP_BITS(u32, uint32_t)
AXON_OP_BITS(u64, uint64_t)
AXON_OP_LOGIC(u8, uint8_t)
AXON_OP_LOGIC(u16, uint16_t)
AXON_OP_LOGIC(u32, uint32_t)
AXON_OP_LOGIC(u64, uint64_t)

AXON_OP_ORDERED(f32, float)
AXON_OP_ORDERED(f64, double)
AXON_OP_ORDERED(fld, long double)
AXON_OP_ARITH(f32, float)
AXON_OP_ARITH(f64, double)
AXON_OP_ARITH(fld, long double)
AXON_OP_ARITH(c32, float _Complex)
AXON_OP_ARITH(c64, double _Complex)
AXON_OP_ARITH(cld, long double _Complex)

/* Half precision and bfloat16 (MPIX_C_FLOAT16, MPIX_BFLOAT16), stored as 16 bits. Each operation is
 * done in float and rounded once to the narrow type, to nearest even: float holds more than twice
 * their precision plus two bits, so that is the correctly rounded result, the one the GPU's __hadd and
 * __hmul give (cuda_support/axon_cuda_reduce_kernels.cu), bit for bit. */
static inline float axon_op_bf16_load(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static inline uint16_t axon_op_bf16_store(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u); /* a NaN stays a NaN, quiet */
    u += 0x7fffu + ((u >> 16) & 1u);            /* to nearest, ties to even */
    return (uint16_t)(u >> 16);
}

#define AXON_OP_BF16(name, expr)                                                                     \
    static void axon_op_##name(const void *restrict in_, void *restrict inout_, int64_t n)          \
    {                                                                                                \
        const uint16_t *restrict in = in_;                                                           \
        uint16_t *restrict io = inout_;                                                              \
        for (int64_t i = 0; i < n; i++) {                                                            \
            const float x = axon_op_bf16_load(in[i]), y = axon_op_bf16_load(io[i]);                  \
            io[i] = (expr);                                                                          \
        }                                                                                            \
    }
/* max and min keep one of the operands as it is (no rounding): the bits are the winner's. */
AXON_OP_BF16(max_bf16, x > y ? in[i] : io[i])
AXON_OP_BF16(min_bf16, x < y ? in[i] : io[i])
AXON_OP_BF16(sum_bf16, axon_op_bf16_store(x + y))
AXON_OP_BF16(prod_bf16, axon_op_bf16_store(x * y))

#if defined(__FLT16_MAX__)
/* GCC's _Float16 evaluates in float and rounds at the assignment: the correctly rounded result. A
 * compiler without _Float16 leaves MPIX_C_FLOAT16 without operations (MPI_ERR_OP). */
#define AXON_OP_HAVE_F16 1
AXON_OP_ORDERED(f16, _Float16)
AXON_OP_ARITH(f16, _Float16)
#endif

/* MPI_REAL16 and MPI_COMPLEX32 are IEEE quad precision (gfortran's real(16)), where the compiler has it. */
#if defined(__SIZEOF_FLOAT128__) && defined(__GNUC__) && !defined(__clang__)
#define AXON_OP_HAVE_F128 1
AXON_OP_ORDERED(f128, _Float128)
AXON_OP_ARITH(f128, _Float128)
AXON_OP_ARITH(c128, _Complex _Float128)
#endif

/* MAXLOC/MINLOC (MPI 3.1 section 5.9.4): the better value wins with its index; equal values keep the
 * smaller index. */
#define AXON_OP_PAIR(name, V, I, better)                                                             \
    static void axon_op_##name(const void *restrict in_, void *restrict inout_, int64_t n)          \
    {                                                                                                \
        const unsigned char *restrict in = in_;                                                      \
        unsigned char *restrict io = inout_;                                                         \
        const size_t stride = sizeof(V) + sizeof(I);                                                 \
        for (int64_t k = 0; k < n; k++) {                                                            \
            V xv, yv;                                                                                \
            I xi, yi;                                                                                \
            memcpy(&xv, in + (size_t)k * stride, sizeof(V));                                         \
            memcpy(&xi, in + (size_t)k * stride + sizeof(V), sizeof(I));                             \
            memcpy(&yv, io + (size_t)k * stride, sizeof(V));                                         \
            memcpy(&yi, io + (size_t)k * stride + sizeof(V), sizeof(I));                             \
            if (xv better yv) {                                                                      \
                yv = xv;                                                                             \
                yi = xi;                                                                             \
            } else if (xv == yv && xi < yi) {                                                        \
                yi = xi;                                                                             \
            }                                                                                        \
            memcpy(io + (size_t)k * stride, &yv, sizeof(V));                                         \
            memcpy(io + (size_t)k * stride + sizeof(V), &yi, sizeof(I));                             \
        }                                                                                            \
    }
#define AXON_OP_PAIRS(s, V, I)                                                                       \
    AXON_OP_PAIR(maxloc_##s, V, I, >)                                                                \
    AXON_OP_PAIR(minloc_##s, V, I, <)

AXON_OP_PAIRS(float_int, float, int)
AXON_OP_PAIRS(double_int, double, int)
AXON_OP_PAIRS(long_int, long, int)
AXON_OP_PAIRS(short_int, short, int)
AXON_OP_PAIRS(ldouble_int, long double, int)
AXON_OP_PAIRS(2int, int32_t, int32_t)
AXON_OP_PAIRS(2real, float, float)
AXON_OP_PAIRS(2double, double, double)

/* ---- the table: [operation][kind] ------------------------------------------------------------------ */

/* The rows are written once, for a maker M(op, type suffix): the loops' table takes the functions, the
 * names' table their names ("sum_u32"), which the GPU's kernels share (cuda_support/
 * axon_cuda_reduce_list.h). */
#define AXON_ROW_ORDERED(M, K, s) [AXON_OPI_MAX][K] = M(max, s), [AXON_OPI_MIN][K] = M(min, s)
#define AXON_ROW_ARITH(M, K, s) [AXON_OPI_SUM][K] = M(sum, s), [AXON_OPI_PROD][K] = M(prod, s)
#define AXON_ROW_BITS(M, K, u)                                                                       \
    [AXON_OPI_BAND][K] = M(band, u), [AXON_OPI_BOR][K] = M(bor, u), [AXON_OPI_BXOR][K] = M(bxor, u)
#define AXON_ROW_LOGIC(M, K, u)                                                                      \
    [AXON_OPI_LAND][K] = M(land, u), [AXON_OPI_LOR][K] = M(lor, u), [AXON_OPI_LXOR][K] = M(lxor, u)
#define AXON_ROW_INT(M, K, s, u)                                                                     \
    AXON_ROW_ORDERED(M, K, s), AXON_ROW_ARITH(M, K, u), AXON_ROW_BITS(M, K, u), AXON_ROW_LOGIC(M, K, u)
#define AXON_ROW_PAIR(M, K, s) [AXON_OPI_MAXLOC][K] = M(maxloc, s), [AXON_OPI_MINLOC][K] = M(minloc, s)

#ifdef AXON_OP_HAVE_F16
#define AXON_ROWS_F16(M) AXON_ROW_ORDERED(M, AXON_KIND_F16, f16), AXON_ROW_ARITH(M, AXON_KIND_F16, f16),
#else
#define AXON_ROWS_F16(M)
#endif

#ifdef AXON_OP_HAVE_F128
#define AXON_ROWS_F128(M)                                                                            \
    AXON_ROW_ORDERED(M, AXON_KIND_F128, f128), AXON_ROW_ARITH(M, AXON_KIND_F128, f128),              \
    AXON_ROW_ARITH(M, AXON_KIND_C128, c128),
#else
#define AXON_ROWS_F128(M)
#endif

#define AXON_ROWS(M)                                                                                 \
    AXON_ROW_INT(M, AXON_KIND_I8, i8, u8), AXON_ROW_INT(M, AXON_KIND_U8, u8, u8),                    \
    AXON_ROW_INT(M, AXON_KIND_I16, i16, u16), AXON_ROW_INT(M, AXON_KIND_U16, u16, u16),              \
    AXON_ROW_INT(M, AXON_KIND_I32, i32, u32), AXON_ROW_INT(M, AXON_KIND_U32, u32, u32),              \
    AXON_ROW_INT(M, AXON_KIND_I64, i64, u64), AXON_ROW_INT(M, AXON_KIND_U64, u64, u64),              \
    AXON_ROWS_F16(M)                                                                                 \
    AXON_ROW_ORDERED(M, AXON_KIND_BF16, bf16), AXON_ROW_ARITH(M, AXON_KIND_BF16, bf16),              \
    AXON_ROW_ORDERED(M, AXON_KIND_F32, f32), AXON_ROW_ARITH(M, AXON_KIND_F32, f32),                  \
    AXON_ROW_ORDERED(M, AXON_KIND_F64, f64), AXON_ROW_ARITH(M, AXON_KIND_F64, f64),                  \
    AXON_ROW_ORDERED(M, AXON_KIND_FLD, fld), AXON_ROW_ARITH(M, AXON_KIND_FLD, fld),                  \
    AXON_ROW_ARITH(M, AXON_KIND_C32, c32), AXON_ROW_ARITH(M, AXON_KIND_C64, c64),                    \
    AXON_ROW_ARITH(M, AXON_KIND_CLD, cld),                                                           \
    AXON_ROWS_F128(M)                                                                                \
    AXON_ROW_LOGIC(M, AXON_KIND_BOOL, u8), AXON_ROW_LOGIC(M, AXON_KIND_LOGICAL, u32),                \
    AXON_ROW_LOGIC(M, AXON_KIND_LOGICAL2, u16), AXON_ROW_LOGIC(M, AXON_KIND_LOGICAL8, u64),          \
    AXON_ROW_BITS(M, AXON_KIND_BYTE, u8),                                                            \
    AXON_ROW_PAIR(M, AXON_KIND_FLOAT_INT, float_int), AXON_ROW_PAIR(M, AXON_KIND_DOUBLE_INT, double_int), \
    AXON_ROW_PAIR(M, AXON_KIND_LONG_INT, long_int), AXON_ROW_PAIR(M, AXON_KIND_SHORT_INT, short_int), \
    AXON_ROW_PAIR(M, AXON_KIND_LDOUBLE_INT, ldouble_int), AXON_ROW_PAIR(M, AXON_KIND_2INT, 2int),     \
    AXON_ROW_PAIR(M, AXON_KIND_2REAL, 2real), AXON_ROW_PAIR(M, AXON_KIND_2DOUBLE, 2double)

#define AXON_LOOP_FN(op, s) axon_op_##op##_##s
#define AXON_LOOP_NAME(op, s) #op "_" #s

static axon_coll_op_loop *const axon_op_loops[AXON_OPI_LOOPS][AXON_KIND_COUNT] = {AXON_ROWS(AXON_LOOP_FN)};
static const char *const axon_op_names[AXON_OPI_LOOPS][AXON_KIND_COUNT] = {AXON_ROWS(AXON_LOOP_NAME)};

_Static_assert(sizeof(long) == 8, "MPI_LONG_INT's GPU kernel takes a 64-bit value");

/* ---- datatypes to kinds ---------------------------------------------------------------------------- */

/* The kind of a C integer type of size n bytes. */
#define AXON_SKIND(n) ((n) == 1 ? AXON_KIND_I8 : (n) == 2 ? AXON_KIND_I16 : (n) == 4 ? AXON_KIND_I32 : AXON_KIND_I64)
#define AXON_UKIND(n) ((n) == 1 ? AXON_KIND_U8 : (n) == 2 ? AXON_KIND_U16 : (n) == 4 ? AXON_KIND_U32 : AXON_KIND_U64)

struct axon_op_type {
    MPI_Datatype handle; /* the whole handle, so another value with the same low byte is refused */
    uint8_t kind;
};

#define AXON_OP_TYPE(h, k) [(unsigned)(h) & 0xffu] = {(h), (k)}

/* MPICH's builtin handles differ in their low byte. MPI_WCHAR, MPI_PACKED and the markers are not
 * reducible: they have no entry. */
static const struct axon_op_type axon_op_builtin_kinds[256] = {
    AXON_OP_TYPE(MPI_CHAR, CHAR_MIN < 0 ? AXON_KIND_I8 : AXON_KIND_U8),
    AXON_OP_TYPE(MPI_CHARACTER, AXON_KIND_U8),
    AXON_OP_TYPE(MPI_SIGNED_CHAR, AXON_KIND_I8),
    AXON_OP_TYPE(MPI_UNSIGNED_CHAR, AXON_KIND_U8),
    AXON_OP_TYPE(MPI_SHORT, AXON_SKIND(sizeof(short))),
    AXON_OP_TYPE(MPI_UNSIGNED_SHORT, AXON_UKIND(sizeof(unsigned short))),
    AXON_OP_TYPE(MPI_INT, AXON_SKIND(sizeof(int))),
    AXON_OP_TYPE(MPI_UNSIGNED, AXON_UKIND(sizeof(unsigned))),
    AXON_OP_TYPE(MPI_LONG, AXON_SKIND(sizeof(long))),
    AXON_OP_TYPE(MPI_UNSIGNED_LONG, AXON_UKIND(sizeof(unsigned long))),
    AXON_OP_TYPE(MPI_LONG_LONG_INT, AXON_SKIND(sizeof(long long))),
    AXON_OP_TYPE(MPI_UNSIGNED_LONG_LONG, AXON_UKIND(sizeof(unsigned long long))),
    AXON_OP_TYPE(MPI_INT8_T, AXON_KIND_I8),
    AXON_OP_TYPE(MPI_INT16_T, AXON_KIND_I16),
    AXON_OP_TYPE(MPI_INT32_T, AXON_KIND_I32),
    AXON_OP_TYPE(MPI_INT64_T, AXON_KIND_I64),
    AXON_OP_TYPE(MPI_UINT8_T, AXON_KIND_U8),
    AXON_OP_TYPE(MPI_UINT16_T, AXON_KIND_U16),
    AXON_OP_TYPE(MPI_UINT32_T, AXON_KIND_U32),
    AXON_OP_TYPE(MPI_UINT64_T, AXON_KIND_U64),
    AXON_OP_TYPE(MPI_AINT, AXON_SKIND(sizeof(MPI_Aint))),
    AXON_OP_TYPE(MPI_OFFSET, AXON_SKIND(sizeof(MPI_Offset))),
    AXON_OP_TYPE(MPI_COUNT, AXON_SKIND(sizeof(MPI_Count))),
    AXON_OP_TYPE(MPI_INTEGER, AXON_KIND_I32),
    AXON_OP_TYPE(MPI_INTEGER1, AXON_KIND_I8),
    AXON_OP_TYPE(MPI_INTEGER2, AXON_KIND_I16),
    AXON_OP_TYPE(MPI_INTEGER4, AXON_KIND_I32),
    AXON_OP_TYPE(MPI_INTEGER8, AXON_KIND_I64),
    AXON_OP_TYPE(MPIX_C_FLOAT16, AXON_KIND_F16),
    AXON_OP_TYPE(MPI_REAL2, AXON_KIND_F16),
    AXON_OP_TYPE(MPIX_BFLOAT16, AXON_KIND_BF16),
    AXON_OP_TYPE(MPI_FLOAT, AXON_KIND_F32),
    AXON_OP_TYPE(MPI_DOUBLE, AXON_KIND_F64),
    AXON_OP_TYPE(MPI_LONG_DOUBLE, AXON_KIND_FLD),
    AXON_OP_TYPE(MPI_REAL, AXON_KIND_F32),
    AXON_OP_TYPE(MPI_DOUBLE_PRECISION, AXON_KIND_F64),
    AXON_OP_TYPE(MPI_REAL4, AXON_KIND_F32),
    AXON_OP_TYPE(MPI_REAL8, AXON_KIND_F64),
    AXON_OP_TYPE(MPI_C_FLOAT_COMPLEX, AXON_KIND_C32),
    AXON_OP_TYPE(MPI_C_DOUBLE_COMPLEX, AXON_KIND_C64),
    AXON_OP_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, AXON_KIND_CLD),
    AXON_OP_TYPE(MPI_CXX_FLOAT_COMPLEX, AXON_KIND_C32),
    AXON_OP_TYPE(MPI_CXX_DOUBLE_COMPLEX, AXON_KIND_C64),
    AXON_OP_TYPE(MPI_CXX_LONG_DOUBLE_COMPLEX, AXON_KIND_CLD),
    AXON_OP_TYPE(MPI_COMPLEX, AXON_KIND_C32),
    AXON_OP_TYPE(MPI_DOUBLE_COMPLEX, AXON_KIND_C64),
    AXON_OP_TYPE(MPI_COMPLEX8, AXON_KIND_C32),
    AXON_OP_TYPE(MPI_COMPLEX16, AXON_KIND_C64),
#ifdef AXON_OP_HAVE_F128
    AXON_OP_TYPE(MPI_REAL16, AXON_KIND_F128),
    AXON_OP_TYPE(MPI_COMPLEX32, AXON_KIND_C128),
#endif
    AXON_OP_TYPE(MPI_C_BOOL, AXON_KIND_BOOL),
    AXON_OP_TYPE(MPI_CXX_BOOL, AXON_KIND_BOOL),
    AXON_OP_TYPE(MPI_LOGICAL, AXON_KIND_LOGICAL),
    /* The optional sized logicals: a Fortran logical is true when nonzero (gfortran writes 1). */
    AXON_OP_TYPE(MPI_LOGICAL1, AXON_KIND_BOOL),
    AXON_OP_TYPE(MPI_LOGICAL2, AXON_KIND_LOGICAL2),
    AXON_OP_TYPE(MPI_LOGICAL4, AXON_KIND_LOGICAL),
    AXON_OP_TYPE(MPI_LOGICAL8, AXON_KIND_LOGICAL8),
    AXON_OP_TYPE(MPI_BYTE, AXON_KIND_BYTE),
    AXON_OP_TYPE(MPI_2INT, AXON_KIND_2INT),
    AXON_OP_TYPE(MPI_2INTEGER, AXON_KIND_2INT),
    AXON_OP_TYPE(MPI_2REAL, AXON_KIND_2REAL),
    AXON_OP_TYPE(MPI_2DOUBLE_PRECISION, AXON_KIND_2DOUBLE),
};

/* The direct pair types 0x8c000000 + i, in MPICH's order. */
static const uint8_t axon_op_pair_kinds[] = {
    AXON_KIND_FLOAT_INT, AXON_KIND_DOUBLE_INT, AXON_KIND_LONG_INT, AXON_KIND_SHORT_INT, AXON_KIND_LDOUBLE_INT,
};

_Static_assert(sizeof(int) == 4, "MPI_2INT and MPI_2INTEGER share a loop of 32-bit pairs");

static unsigned axon_op_kind(MPI_Datatype basic)
{
    unsigned h = (unsigned)basic;
    if ((h & 0xfc000000u) == 0x4c000000u) {
        const struct axon_op_type *t = &axon_op_builtin_kinds[h & 0xffu];
        return t->handle == basic ? t->kind : AXON_KIND_NONE;
    }
    unsigned pair = h - (unsigned)MPI_FLOAT_INT;
    return pair < sizeof(axon_op_pair_kinds) ? axon_op_pair_kinds[pair] : AXON_KIND_NONE;
}

axon_coll_op_loop *axon_coll_op_predefined_loop(unsigned opi, MPI_Datatype basic)
{
    if (opi >= AXON_OPI_LOOPS)
        return NULL;
    return axon_op_loops[opi][axon_op_kind(basic)];
}

const char *axon_coll_op_predefined_name(unsigned opi, MPI_Datatype basic)
{
    if (opi >= AXON_OPI_LOOPS)
        return NULL;
    return axon_op_names[opi][axon_op_kind(basic)];
}

/* The kernels found by name, per [memory kind][operation][kind]: 0 not looked up yet, 1 none, k + 2
 * kernel k. Every collective of a process with a device kind on asks (GPU buffers or not), and the
 * lookup compares names: it runs once per pair. Which kernels exist is the build's, so the answer never
 * changes; two threads asking at once store the same value. */
static unsigned char axon_op_kernels[AXON_MEMKIND_COUNT][AXON_OPI_LOOPS][AXON_KIND_COUNT];

int axon_coll_op_predefined_kernel(enum axon_memkind mk, unsigned opi, MPI_Datatype basic)
{
    if (opi >= AXON_OPI_LOOPS || (unsigned)mk >= AXON_MEMKIND_COUNT)
        return -1;
    unsigned kind = axon_op_kind(basic);
    unsigned char *slot = &axon_op_kernels[mk][opi][kind];
    unsigned char known = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (!known) {
        int k = axon_memkind_reduce_kernel(mk, axon_op_names[opi][kind]);
        known = (unsigned char)(k < 0 ? 1 : k + 2);
        __atomic_store_n(slot, known, __ATOMIC_RELAXED);
    }
    return (int)known - 2;
}
