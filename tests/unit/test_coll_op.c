/* Reduction operations (coll/axon_coll_op.h) without MPI_Init: every predefined operation on every
 * predefined type it allows, against a reference computed here; the whole (operation, type) matrix of
 * what is allowed (MPI_ERR_OP otherwise: the pairs both MPICH and Open MPI refuse, and those only one
 * of them takes); the tie rule of MAXLOC/MINLOC on packed pairs; derived
 * layouts made of one basic type; user operations (order of the operands, pieces of INT_MAX elements,
 * lifetime after free). */
#include "coll/axon_coll_op.h"
#include "mpi/axon_mpi.h"

#include <check.h>
#include <complex.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define N 203

static const MPI_Op all_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                                 MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
#define NOPS ((int)(sizeof(all_ops) / sizeof(all_ops[0])))

static struct axon_coll_op *op_of(MPI_Op h)
{
    struct axon_coll_op *o = axon_coll_op_get(h);
    ck_assert_msg(o != NULL, "no operation for 0x%x", (unsigned)h);
    return o;
}

static struct axon_dtype_layout layout_of(MPI_Datatype t)
{
    struct axon_dtype_layout dt;
    ck_assert_msg(axon_mpi_datatype_get(t, &dt), "no layout for 0x%x", (unsigned)t);
    return dt;
}

static int check_pair(MPI_Op op, MPI_Datatype t)
{
    struct axon_dtype_layout dt = layout_of(t);
    return axon_coll_op_check(op_of(op), t, &dt);
}

static void apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int64_t n)
{
    struct axon_dtype_layout dt = layout_of(t);
    ck_assert_int_eq(axon_coll_op_check(op_of(op), t, &dt), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_op_apply(op_of(op), in, inout, n, t, &dt), MPI_SUCCESS);
}

static void setup(void)
{
    ck_assert_int_eq(axon_mpi_datatype_init(), MPI_SUCCESS);
}

static void teardown(void)
{
    axon_mpi_datatype_finalize();
}

/* ---- what is allowed ----------------------------------------------------------------------------------- */

enum cls { C_INT, F_INT, MULTI, CHARS, FLOATING, COMPLEX, LOGICAL, BYTE, PAIR, NONE };

static const struct {
    MPI_Datatype t;
    enum cls c;
} types[] = {
    {MPI_SIGNED_CHAR, C_INT},        {MPI_UNSIGNED_CHAR, C_INT},
    {MPI_SHORT, C_INT},              {MPI_UNSIGNED_SHORT, C_INT},
    {MPI_INT, C_INT},                {MPI_UNSIGNED, C_INT},
    {MPI_LONG, C_INT},               {MPI_UNSIGNED_LONG, C_INT},
    {MPI_LONG_LONG_INT, C_INT},      {MPI_UNSIGNED_LONG_LONG, C_INT},
    {MPI_INT8_T, C_INT},             {MPI_INT16_T, C_INT},
    {MPI_INT32_T, C_INT},            {MPI_INT64_T, C_INT},
    {MPI_UINT8_T, C_INT},            {MPI_UINT16_T, C_INT},
    {MPI_UINT32_T, C_INT},           {MPI_UINT64_T, C_INT},
    {MPI_INTEGER, F_INT},            {MPI_INTEGER1, F_INT},
    {MPI_INTEGER2, F_INT},           {MPI_INTEGER4, F_INT},
    {MPI_INTEGER8, F_INT},           {MPI_AINT, MULTI},
    {MPI_OFFSET, MULTI},             {MPI_COUNT, MULTI},
    {MPI_FLOAT, FLOATING},           {MPI_DOUBLE, FLOATING},
    {MPIX_C_FLOAT16, FLOATING},      {MPIX_BFLOAT16, FLOATING},
    {MPI_REAL2, FLOATING},
    {MPI_LONG_DOUBLE, FLOATING},     {MPI_REAL, FLOATING},
    {MPI_DOUBLE_PRECISION, FLOATING}, {MPI_REAL4, FLOATING},
    {MPI_REAL8, FLOATING},           {MPI_C_FLOAT_COMPLEX, COMPLEX},
    {MPI_C_DOUBLE_COMPLEX, COMPLEX}, {MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX},
    {MPI_CXX_FLOAT_COMPLEX, COMPLEX}, {MPI_CXX_DOUBLE_COMPLEX, COMPLEX},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX}, {MPI_COMPLEX, COMPLEX},
    {MPI_DOUBLE_COMPLEX, COMPLEX},   {MPI_COMPLEX8, COMPLEX},
    {MPI_COMPLEX16, COMPLEX},        {MPI_C_BOOL, LOGICAL},
    {MPI_CXX_BOOL, LOGICAL},         {MPI_LOGICAL, LOGICAL},
    {MPI_BYTE, BYTE},                {MPI_FLOAT_INT, PAIR},
    {MPI_DOUBLE_INT, PAIR},          {MPI_LONG_INT, PAIR},
    {MPI_SHORT_INT, PAIR},           {MPI_LONG_DOUBLE_INT, PAIR},
    {MPI_2INT, PAIR},                {MPI_2INTEGER, PAIR},
    {MPI_2REAL, PAIR},               {MPI_2DOUBLE_PRECISION, PAIR},
    {MPI_LOGICAL1, LOGICAL},         {MPI_LOGICAL2, LOGICAL},
    {MPI_LOGICAL4, LOGICAL},         {MPI_LOGICAL8, LOGICAL},
    {MPI_LOGICAL16, NONE},           {MPI_COMPLEX4, NONE},
    {MPI_CHAR, CHARS},               {MPI_WCHAR, NONE},
    {MPI_CHARACTER, CHARS},          {MPI_PACKED, NONE},
#ifdef __SIZEOF_FLOAT128__
    {MPI_REAL16, FLOATING},          {MPI_COMPLEX32, COMPLEX},
#endif
};

/* MPI 4.1 section 6.9.2, by operation: which classes it takes; with what both MPICH 4.0 and Open MPI 4.1
 * take beyond it (characters as integers, logical operations on Fortran and multi-language integers). */
static bool allowed(MPI_Op op, enum cls c)
{
    unsigned m = 1u << c;
    unsigned ints = 1u << C_INT | 1u << F_INT | 1u << MULTI | 1u << CHARS;
    if (op == MPI_MAX || op == MPI_MIN)
        return m & (ints | 1u << FLOATING);
    if (op == MPI_SUM || op == MPI_PROD)
        return m & (ints | 1u << FLOATING | 1u << COMPLEX);
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return m & (ints | 1u << LOGICAL);
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return m & (ints | 1u << BYTE);
    if (op == MPI_MAXLOC || op == MPI_MINLOC)
        return c == PAIR;
    return false; /* MPI_REPLACE, MPI_NO_OP: accumulates only */
}

START_TEST(matrix_of_allowed_pairs)
{
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        for (int k = 0; k < NOPS; k++) {
            int want = allowed(all_ops[k], types[i].c) ? MPI_SUCCESS : MPI_ERR_OP;
            ck_assert_msg(check_pair(all_ops[k], types[i].t) == want, "op 0x%x on type 0x%x: expected %s",
                          (unsigned)all_ops[k], (unsigned)types[i].t, want ? "MPI_ERR_OP" : "success");
        }
    /* The examples of the standard's text, and apply refusing too. */
    ck_assert_int_eq(check_pair(MPI_SUM, MPI_2INT), MPI_ERR_OP);
    ck_assert_int_eq(check_pair(MPI_BAND, MPI_DOUBLE), MPI_ERR_OP);
    struct axon_dtype_layout dt = layout_of(MPI_DOUBLE);
    double a = 1, b = 2;
    ck_assert_int_eq(axon_coll_op_apply(op_of(MPI_BAND), &a, &b, 1, MPI_DOUBLE, &dt), MPI_ERR_OP);
    ck_assert(b == 2);
}
END_TEST

START_TEST(handles)
{
    for (int k = 0; k < NOPS; k++) {
        ck_assert(axon_coll_op_is_predefined(op_of(all_ops[k])));
        ck_assert(axon_coll_op_commutative(op_of(all_ops[k])));
    }
    ck_assert_ptr_null(axon_coll_op_get(MPI_OP_NULL));
    ck_assert_ptr_null(axon_coll_op_get((MPI_Op)0x58000000));
    ck_assert_ptr_null(axon_coll_op_get((MPI_Op)0x5800000f));
    ck_assert_ptr_null(axon_coll_op_get((MPI_Op)0x98000123));
    ck_assert_ptr_null(axon_coll_op_get(MPI_COMM_WORLD));
    ck_assert_int_eq(axon_coll_op_free(MPI_SUM), MPI_ERR_OP);
}
END_TEST

/* ---- integers ------------------------------------------------------------------------------------------ */

/* Values with negatives, zeros and the extremes of T. */
#define FILL_INT(T, a, b, seed)                                                                      \
    do {                                                                                             \
        uint64_t s_ = (seed) * 2862933555777941757ull + 3037000493ull;                               \
        for (int i = 0; i < N; i++) {                                                                \
            s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;                               \
            a[i] = (T)(s_ >> 33);                                                                    \
            b[i] = (T)(s_ >> 13);                                                                    \
            if (i % 7 == 0)                                                                          \
                a[i] = 0;                                                                            \
            if (i % 11 == 0)                                                                         \
                b[i] = 0;                                                                            \
            if (i % 13 == 0)                                                                         \
                a[i] = b[i];                                                                         \
            if (i % 17 == 0)                                                                         \
                a[i] = (T)-1;                                                                        \
        }                                                                                            \
    } while (0)

#define CHECK_INT_OP(T, t, op, expr)                                                                 \
    do {                                                                                             \
        T a[N], b[N], want[N];                                                                       \
        FILL_INT(T, a, b, (uint64_t)(op) ^ (uint64_t)(t));                                           \
        for (int i = 0; i < N; i++) {                                                                \
            T x = a[i], y = b[i];                                                                    \
            (void)x, (void)y;                                                                        \
            want[i] = (T)(expr);                                                                     \
        }                                                                                            \
        apply(op, t, a, b, N);                                                                       \
        for (int i = 0; i < N; i++)                                                                  \
            ck_assert_msg(b[i] == want[i], "op 0x%x type 0x%x element %d: %lld, expected %lld",      \
                          (unsigned)(op), (unsigned)(t), i, (long long)b[i], (long long)want[i]);    \
    } while (0)

#define CHECK_INT(T, t)                                                                              \
    do {                                                                                             \
        CHECK_INT_OP(T, t, MPI_MAX, x > y ? x : y);                                                  \
        CHECK_INT_OP(T, t, MPI_MIN, x < y ? x : y);                                                  \
        CHECK_INT_OP(T, t, MPI_SUM, (uint64_t)x + (uint64_t)y);                                      \
        CHECK_INT_OP(T, t, MPI_PROD, (uint64_t)x * (uint64_t)y);                                     \
        CHECK_INT_OP(T, t, MPI_BAND, x & y);                                                         \
        CHECK_INT_OP(T, t, MPI_BOR, x | y);                                                          \
        CHECK_INT_OP(T, t, MPI_BXOR, x ^ y);                                                         \
        CHECK_INT_OP(T, t, MPI_LAND, x && y);                                                        \
        CHECK_INT_OP(T, t, MPI_LOR, x || y);                                                         \
        CHECK_INT_OP(T, t, MPI_LXOR, !x != !y);                                                      \
    } while (0)

START_TEST(integers)
{
    /* MPI_CHAR is the compiler's char, signed or not; MPI_CHARACTER Fortran's unsigned codes. */
    CHECK_INT(char, MPI_CHAR);
    CHECK_INT(unsigned char, MPI_CHARACTER);
    CHECK_INT(signed char, MPI_SIGNED_CHAR);
    CHECK_INT(unsigned char, MPI_UNSIGNED_CHAR);
    CHECK_INT(short, MPI_SHORT);
    CHECK_INT(unsigned short, MPI_UNSIGNED_SHORT);
    CHECK_INT(int, MPI_INT);
    CHECK_INT(unsigned, MPI_UNSIGNED);
    CHECK_INT(long, MPI_LONG);
    CHECK_INT(unsigned long, MPI_UNSIGNED_LONG);
    CHECK_INT(long long, MPI_LONG_LONG);
    CHECK_INT(unsigned long long, MPI_UNSIGNED_LONG_LONG);
    CHECK_INT(int8_t, MPI_INT8_T);
    CHECK_INT(int16_t, MPI_INT16_T);
    CHECK_INT(int32_t, MPI_INT32_T);
    CHECK_INT(int64_t, MPI_INT64_T);
    CHECK_INT(uint8_t, MPI_UINT8_T);
    CHECK_INT(uint16_t, MPI_UINT16_T);
    CHECK_INT(uint32_t, MPI_UINT32_T);
    CHECK_INT(uint64_t, MPI_UINT64_T);
    CHECK_INT(int32_t, MPI_INTEGER);
    CHECK_INT(int8_t, MPI_INTEGER1);
    CHECK_INT(int16_t, MPI_INTEGER2);
    CHECK_INT(int32_t, MPI_INTEGER4);
    CHECK_INT(int64_t, MPI_INTEGER8);
    CHECK_INT(MPI_Aint, MPI_AINT);
    CHECK_INT(MPI_Offset, MPI_OFFSET);
    CHECK_INT(MPI_Count, MPI_COUNT);
}
END_TEST

START_TEST(logical_and_byte)
{
    CHECK_INT_OP(_Bool, MPI_C_BOOL, MPI_LAND, x && y);
    CHECK_INT_OP(_Bool, MPI_C_BOOL, MPI_LOR, x || y);
    CHECK_INT_OP(_Bool, MPI_C_BOOL, MPI_LXOR, x != y);
    CHECK_INT_OP(_Bool, MPI_CXX_BOOL, MPI_LAND, x && y);
    CHECK_INT_OP(_Bool, MPI_CXX_BOOL, MPI_LXOR, x != y);
    /* Fortran LOGICAL: 4 bytes, any non-zero value true; results 0 or 1. */
    CHECK_INT_OP(int32_t, MPI_LOGICAL, MPI_LAND, x && y);
    CHECK_INT_OP(int32_t, MPI_LOGICAL, MPI_LOR, x || y);
    CHECK_INT_OP(int32_t, MPI_LOGICAL, MPI_LXOR, !x != !y);
    CHECK_INT_OP(int8_t, MPI_LOGICAL1, MPI_LOR, x || y);
    CHECK_INT_OP(int16_t, MPI_LOGICAL2, MPI_LXOR, !x != !y);
    CHECK_INT_OP(int32_t, MPI_LOGICAL4, MPI_LAND, x && y);
    CHECK_INT_OP(int64_t, MPI_LOGICAL8, MPI_LXOR, !x != !y);
    CHECK_INT_OP(unsigned char, MPI_BYTE, MPI_BAND, x & y);
    CHECK_INT_OP(unsigned char, MPI_BYTE, MPI_BOR, x | y);
    CHECK_INT_OP(unsigned char, MPI_BYTE, MPI_BXOR, x ^ y);
}
END_TEST

/* MPI_REPLACE and MPI_NO_OP: refused to reductions, applied as accumulates do (any type, by bytes). */
START_TEST(accumulate_operations)
{
    ck_assert_int_eq(check_pair(MPI_REPLACE, MPI_INT), MPI_ERR_OP);
    ck_assert_int_eq(check_pair(MPI_NO_OP, MPI_DOUBLE_INT), MPI_ERR_OP);
    struct axon_dtype_layout dt = layout_of(MPI_INT);
    int a[3] = {1, -2, 3}, b[3] = {7, 8, 9};
    ck_assert_int_eq(axon_coll_op_apply(op_of(MPI_NO_OP), a, b, 3, MPI_INT, &dt), MPI_SUCCESS);
    ck_assert(b[0] == 7 && b[1] == 8 && b[2] == 9);
    ck_assert_int_eq(axon_coll_op_apply(op_of(MPI_REPLACE), a, b, 3, MPI_INT, &dt), MPI_SUCCESS);
    ck_assert(b[0] == 1 && b[1] == -2 && b[2] == 3);
}
END_TEST

/* ---- floating point and complex ----------------------------------------------------------------------- */

/* Halves and small integers: sums and products are exact, so the comparison can be ==. */
#define CHECK_REAL_OP(T, t, op, expr)                                                                \
    do {                                                                                             \
        T a[N], b[N], want[N];                                                                       \
        for (int i = 0; i < N; i++) {                                                                \
            a[i] = (T)((i * 7) % 23 - 11) / 2;                                                       \
            b[i] = (T)((i * 5) % 19 - 9) / 2;                                                        \
            T x = a[i], y = b[i];                                                                    \
            (void)x, (void)y;                                                                        \
            want[i] = (expr);                                                                        \
        }                                                                                            \
        apply(op, t, a, b, N);                                                                       \
        for (int i = 0; i < N; i++)                                                                  \
            ck_assert_msg(b[i] == want[i], "op 0x%x type 0x%x element %d: %g, expected %g",          \
                          (unsigned)(op), (unsigned)(t), i, (double)b[i], (double)want[i]);          \
    } while (0)

#define CHECK_REAL(T, t)                                                                             \
    do {                                                                                             \
        CHECK_REAL_OP(T, t, MPI_MAX, x > y ? x : y);                                                 \
        CHECK_REAL_OP(T, t, MPI_MIN, x < y ? x : y);                                                 \
        CHECK_REAL_OP(T, t, MPI_SUM, x + y);                                                         \
        CHECK_REAL_OP(T, t, MPI_PROD, x * y);                                                        \
    } while (0)

#define CHECK_COMPLEX_OP(T, R, t, op, expr)                                                          \
    do {                                                                                             \
        T a[N], b[N], want[N];                                                                       \
        for (int i = 0; i < N; i++) {                                                                \
            R ar = (R)((i * 7) % 23 - 11) / 2, ai = (R)((i * 3) % 7 - 3);                            \
            R br = (R)((i * 5) % 19 - 9) / 2, bi = (R)((i * 11) % 5 - 2);                            \
            memcpy(&a[i], (R[2]){ar, ai}, sizeof(T));                                                \
            memcpy(&b[i], (R[2]){br, bi}, sizeof(T));                                                \
            /* (ar + i ai) op (br + i bi), written out */                                            \
            R wr, wi;                                                                                \
            expr;                                                                                    \
            memcpy(&want[i], (R[2]){wr, wi}, sizeof(T));                                             \
        }                                                                                            \
        apply(op, t, a, b, N);                                                                       \
        for (int i = 0; i < N; i++) {                                                                \
            R got[2], exp[2];                                                                        \
            memcpy(got, &b[i], sizeof(T));                                                           \
            memcpy(exp, &want[i], sizeof(T));                                                        \
            ck_assert_msg(got[0] == exp[0] && got[1] == exp[1],                                      \
                          "op 0x%x type 0x%x element %d: %g%+gi, expected %g%+gi", (unsigned)(op),   \
                          (unsigned)(t), i, (double)got[0], (double)got[1], (double)exp[0],          \
                          (double)exp[1]);                                                           \
        }                                                                                            \
    } while (0)

#define CHECK_COMPLEX(T, R, t)                                                                       \
    do {                                                                                             \
        CHECK_COMPLEX_OP(T, R, t, MPI_SUM, (wr = ar + br, wi = ai + bi));                            \
        CHECK_COMPLEX_OP(T, R, t, MPI_PROD, (wr = ar * br - ai * bi, wi = ar * bi + ai * br));       \
    } while (0)

START_TEST(floating_and_complex)
{
    CHECK_REAL(float, MPI_FLOAT);
    CHECK_REAL(double, MPI_DOUBLE);
    CHECK_REAL(long double, MPI_LONG_DOUBLE);
    CHECK_REAL(float, MPI_REAL);
    CHECK_REAL(double, MPI_DOUBLE_PRECISION);
    CHECK_REAL(float, MPI_REAL4);
    CHECK_REAL(double, MPI_REAL8);
    CHECK_COMPLEX(float _Complex, float, MPI_C_FLOAT_COMPLEX);
    CHECK_COMPLEX(double _Complex, double, MPI_C_DOUBLE_COMPLEX);
    CHECK_COMPLEX(long double _Complex, long double, MPI_C_LONG_DOUBLE_COMPLEX);
    CHECK_COMPLEX(float _Complex, float, MPI_CXX_FLOAT_COMPLEX);
    CHECK_COMPLEX(double _Complex, double, MPI_CXX_DOUBLE_COMPLEX);
    CHECK_COMPLEX(long double _Complex, long double, MPI_CXX_LONG_DOUBLE_COMPLEX);
    CHECK_COMPLEX(float _Complex, float, MPI_COMPLEX);
    CHECK_COMPLEX(double _Complex, double, MPI_DOUBLE_COMPLEX);
    CHECK_COMPLEX(float _Complex, float, MPI_COMPLEX8);
    CHECK_COMPLEX(double _Complex, double, MPI_COMPLEX16);
#ifdef __SIZEOF_FLOAT128__
    CHECK_REAL(__float128, MPI_REAL16);
    CHECK_COMPLEX(_Complex _Float128, __float128, MPI_COMPLEX32);
#endif
}
END_TEST

/* Half precision and bfloat16, by their bits: each result correctly rounded, to nearest, ties to even
 * (as the GPU's __hadd and __hmul give it), overflow to infinity, subnormals kept. */
START_TEST(half_and_bfloat16)
{
    static const struct {
        MPI_Datatype t;
        MPI_Op op;
        uint16_t a, b, want;
    } cases[] = {
        /* bfloat16: 1 + 2^-8 is half-way between 1 and 1 + 2^-7: to the even one, 1 */
        {MPIX_BFLOAT16, MPI_SUM, 0x3f80, 0x3b80, 0x3f80},
        /* (1 + 2^-7) + 2^-8: half-way again, now up to the even 1 + 2^-6 */
        {MPIX_BFLOAT16, MPI_SUM, 0x3f81, 0x3b80, 0x3f82},
        {MPIX_BFLOAT16, MPI_SUM, 0x3f80, 0xbf80, 0x0000},  /* 1 + -1 */
        {MPIX_BFLOAT16, MPI_PROD, 0x4040, 0x4040, 0x4110}, /* 3 * 3 = 9 */
        {MPIX_BFLOAT16, MPI_MAX, 0xbf80, 0x3f80, 0x3f80},
        {MPIX_BFLOAT16, MPI_MIN, 0xbf80, 0x3f80, 0xbf80},
        /* half: 1 + 2^-11 half-way between 1 and 1 + 2^-10: 1 */
        {MPIX_C_FLOAT16, MPI_SUM, 0x3c00, 0x1000, 0x3c00},
        {MPIX_C_FLOAT16, MPI_SUM, 0x3c01, 0x1000, 0x3c02},
        /* 65504 + 16 = 65520, half-way to 65536, which is beyond the largest: infinity */
        {MPIX_C_FLOAT16, MPI_SUM, 0x7bff, 0x4c00, 0x7c00},
        {MPIX_C_FLOAT16, MPI_SUM, 0x0001, 0x0001, 0x0002}, /* subnormals */
        {MPIX_C_FLOAT16, MPI_PROD, 0x4200, 0xc200, 0xc880}, /* 3 * -3 = -9 */
        {MPIX_C_FLOAT16, MPI_MAX, 0x3c00, 0x4000, 0x4000},
        {MPIX_C_FLOAT16, MPI_MIN, 0x3c00, 0x4000, 0x3c00},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint16_t in = cases[i].a, io = cases[i].b;
        apply(cases[i].op, cases[i].t, &in, &io, 1);
        ck_assert_msg(io == cases[i].want, "case %zu: 0x%04x op 0x%04x = 0x%04x, expected 0x%04x", i, cases[i].a,
                      cases[i].b, io, cases[i].want);
    }
    /* A vector: the loop reaches every element. */
    uint16_t a[37], b[37];
    for (int i = 0; i < 37; i++)
        a[i] = b[i] = 0x3f80; /* bfloat16 1.0 */
    apply(MPI_SUM, MPIX_BFLOAT16, a, b, 37);
    for (int i = 0; i < 37; i++)
        ck_assert_uint_eq(b[i], 0x4000); /* 2.0 */
}
END_TEST

/* ---- MAXLOC and MINLOC ------------------------------------------------------------------------------ */

/* Packed pairs: value then index, no padding. Few distinct values, so ties are common. */
#define CHECK_PAIR_OP(V, I, t, op, better)                                                           \
    do {                                                                                             \
        enum { S = sizeof(V) + sizeof(I) };                                                          \
        unsigned char a[N * S], b[N * S], want[N * S];                                               \
        for (int i = 0; i < N; i++) {                                                                \
            V av = (V)(i % 3), bv = (V)((i / 3) % 3);                                                \
            I ai = (I)((i * 13) % 29), bi = (I)((i * 7) % 31);                                       \
            V wv = bv;                                                                               \
            I wi = bi;                                                                               \
            if (av better bv) {                                                                      \
                wv = av;                                                                             \
                wi = ai;                                                                             \
            } else if (av == bv) {                                                                   \
                wi = ai < bi ? ai : bi;                                                              \
            }                                                                                        \
            memcpy(a + i * S, &av, sizeof(V));                                                       \
            memcpy(a + i * S + sizeof(V), &ai, sizeof(I));                                           \
            memcpy(b + i * S, &bv, sizeof(V));                                                       \
            memcpy(b + i * S + sizeof(V), &bi, sizeof(I));                                           \
            memcpy(want + i * S, &wv, sizeof(V));                                                    \
            memcpy(want + i * S + sizeof(V), &wi, sizeof(I));                                        \
        }                                                                                            \
        apply(op, t, a, b, N);                                                                       \
        for (int i = 0; i < N; i++) {                                                                \
            V gv, ev;                                                                                \
            I gi, ei;                                                                                \
            memcpy(&gv, b + i * S, sizeof(V));                                                       \
            memcpy(&gi, b + i * S + sizeof(V), sizeof(I));                                           \
            memcpy(&ev, want + i * S, sizeof(V));                                                    \
            memcpy(&ei, want + i * S + sizeof(V), sizeof(I));                                        \
            ck_assert_msg(gv == ev && gi == ei, "op 0x%x type 0x%x pair %d: (%g, %g), expected (%g, %g)", \
                          (unsigned)(op), (unsigned)(t), i, (double)gv, (double)gi, (double)ev,      \
                          (double)ei);                                                               \
        }                                                                                            \
    } while (0)

#define CHECK_PAIR(V, I, t)                                                                          \
    do {                                                                                             \
        CHECK_PAIR_OP(V, I, t, MPI_MAXLOC, >);                                                       \
        CHECK_PAIR_OP(V, I, t, MPI_MINLOC, <);                                                       \
    } while (0)

START_TEST(maxloc_minloc)
{
    CHECK_PAIR(float, int, MPI_FLOAT_INT);
    CHECK_PAIR(double, int, MPI_DOUBLE_INT);
    CHECK_PAIR(long, int, MPI_LONG_INT);
    CHECK_PAIR(short, int, MPI_SHORT_INT);
    CHECK_PAIR(long double, int, MPI_LONG_DOUBLE_INT);
    CHECK_PAIR(int, int, MPI_2INT);
    CHECK_PAIR(int32_t, int32_t, MPI_2INTEGER);
    CHECK_PAIR(float, float, MPI_2REAL);
    CHECK_PAIR(double, double, MPI_2DOUBLE_PRECISION);

    /* The tie rule in both directions of the operands: the smaller index wins. */
    struct { double v; int i; } lo = {5.0, 2}, hi = {5.0, 9};
    unsigned char in[12], io[12];
    memcpy(in, &hi.v, 8), memcpy(in + 8, &hi.i, 4), memcpy(io, &lo.v, 8), memcpy(io + 8, &lo.i, 4);
    apply(MPI_MAXLOC, MPI_DOUBLE_INT, in, io, 1);
    int idx;
    memcpy(&idx, io + 8, 4);
    ck_assert_int_eq(idx, 2);
    memcpy(in, &lo.v, 8), memcpy(in + 8, &lo.i, 4), memcpy(io, &hi.v, 8), memcpy(io + 8, &hi.i, 4);
    apply(MPI_MINLOC, MPI_DOUBLE_INT, in, io, 1);
    memcpy(&idx, io + 8, 4);
    ck_assert_int_eq(idx, 2);
}
END_TEST

/* ---- derived layouts ------------------------------------------------------------------------------------ */

START_TEST(derived_of_one_basic_type)
{
    /* A derived handle whose layout says: three doubles an element. */
    MPI_Datatype derived = (MPI_Datatype)0x8c000010;
    struct axon_dtype_layout dt = {.size = 24, .extent = 24, .contig = true, .basic = MPI_DOUBLE, .basic_count = 3};
    double a[12], b[12];
    for (int i = 0; i < 12; i++)
        a[i] = i, b[i] = 100 * i;
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_SUM), derived, &dt), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_op_apply(op_of(MPI_SUM), a, b, 4, derived, &dt), MPI_SUCCESS);
    for (int i = 0; i < 12; i++)
        ck_assert(b[i] == 101 * i);
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_BXOR), derived, &dt), MPI_ERR_OP);
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_MAXLOC), derived, &dt), MPI_ERR_OP);

    /* Made of pairs: MAXLOC only. */
    struct axon_dtype_layout pairs = {.size = 16, .extent = 16, .contig = true, .basic = MPI_2INT, .basic_count = 2};
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_MAXLOC), derived, &pairs), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_SUM), derived, &pairs), MPI_ERR_OP);
    int pa[4] = {1, 7, 4, 3}, pb[4] = {1, 5, 2, 0};
    ck_assert_int_eq(axon_coll_op_apply(op_of(MPI_MAXLOC), pa, pb, 1, derived, &pairs), MPI_SUCCESS);
    ck_assert_int_eq(pb[0], 1);
    ck_assert_int_eq(pb[1], 5);
    ck_assert_int_eq(pb[2], 4);
    ck_assert_int_eq(pb[3], 3);

    /* Mixed members: no predefined reduction. */
    struct axon_dtype_layout mixed = {.size = 12, .extent = 16, .contig = false, .basic = MPI_DATATYPE_NULL};
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_SUM), derived, &mixed), MPI_ERR_OP);
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_MAX), derived, &mixed), MPI_ERR_OP);
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_REPLACE), derived, &mixed), MPI_ERR_OP);
    ck_assert_int_eq(axon_coll_op_check(op_of(MPI_NO_OP), derived, &mixed), MPI_ERR_OP);
}
END_TEST

/* ---- user operations ------------------------------------------------------------------------------------ */

/* Not commutative: inout = 10 * in + inout, so the order of the operands shows. */
static void shift_add(void *in, void *inout, int *len, MPI_Datatype *type)
{
    ck_assert_int_eq(*type, MPI_INT);
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = 10 * ((int *)in)[i] + ((int *)inout)[i];
}

static int ncalls;
static int64_t lens[4];
static const char *ins[4];
static char *inouts[4];

/* Records its pieces and touches nothing: the count is larger than any buffer. */
static void record(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    if (ncalls < 4) {
        lens[ncalls] = *len;
        ins[ncalls] = in;
        inouts[ncalls] = inout;
    }
    ncalls++;
}

START_TEST(user_operations)
{
    MPI_Op h;
    ck_assert_int_eq(axon_coll_op_create(shift_add, NULL, false, &h), MPI_SUCCESS);
    ck_assert_uint_eq((unsigned)h & 0xfc000000u, 0x98000000u);
    struct axon_coll_op *op = op_of(h);
    ck_assert(!axon_coll_op_commutative(op));
    ck_assert(!axon_coll_op_is_predefined(op));
    struct axon_dtype_layout dt = layout_of(MPI_INT);
    ck_assert_int_eq(axon_coll_op_check(op, MPI_INT, &dt), MPI_SUCCESS);
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {6, 7, 8, 9, 0};
    ck_assert_int_eq(axon_coll_op_apply(op, a, b, 5, MPI_INT, &dt), MPI_SUCCESS);
    int want[5] = {16, 27, 38, 49, 50};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(b[i], want[i]);

    /* A pending collective keeps the operation after MPI_Op_free; the handle dies at once. */
    axon_coll_op_retain(op);
    ck_assert_int_eq(axon_coll_op_free(h), MPI_SUCCESS);
    ck_assert_ptr_null(axon_coll_op_get(h));
    ck_assert_int_eq(axon_coll_op_free(h), MPI_ERR_OP);
    ck_assert_int_eq(axon_coll_op_apply(op, a, b, 1, MPI_INT, &dt), MPI_SUCCESS);
    ck_assert_int_eq(b[0], 26);
    axon_coll_op_release(op);

    /* The index is reused, for a commutative one this time. */
    MPI_Op h2;
    ck_assert_int_eq(axon_coll_op_create(record, NULL, true, &h2), MPI_SUCCESS);
    ck_assert_int_eq(h2, h);
    ck_assert(axon_coll_op_commutative(op_of(h2)));

    /* More than INT_MAX elements: pieces of INT_MAX, the pointers one extent further per element. */
    struct axon_dtype_layout bytes = layout_of(MPI_BYTE);
    static char base_in[1], base_io[1];
    int64_t count = (int64_t)INT_MAX * 2 + 5;
    ncalls = 0;
    ck_assert_int_eq(axon_coll_op_apply(op_of(h2), base_in, base_io, count, MPI_BYTE, &bytes), MPI_SUCCESS);
    ck_assert_int_eq(ncalls, 3);
    ck_assert(lens[0] == INT_MAX && lens[1] == INT_MAX && lens[2] == 5);
    ck_assert((uintptr_t)ins[1] == (uintptr_t)base_in + INT_MAX &&
              (uintptr_t)inouts[2] == (uintptr_t)base_io + 2 * (uintptr_t)INT_MAX);
    ck_assert_int_eq(axon_coll_op_free(h2), MPI_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_op");
    TCase *tc = tcase_create("op");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, matrix_of_allowed_pairs);
    tcase_add_test(tc, handles);
    tcase_add_test(tc, integers);
    tcase_add_test(tc, logical_and_byte);
    tcase_add_test(tc, accumulate_operations);
    tcase_add_test(tc, floating_and_complex);
    tcase_add_test(tc, half_and_bfloat16);
    tcase_add_test(tc, maxloc_minloc);
    tcase_add_test(tc, derived_of_one_basic_type);
    tcase_add_test(tc, user_operations);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
