/* The Fortran 90 parameterized types (MPI_Type_create_f90_real, _complex, _integer): each (p, r) or (r)
 * gives the type of gfortran's selected_real_kind / selected_int_kind with its base type's size and
 * extent; the envelope and contents (int and _c) report the F90 combiner and the arguments; the type
 * cannot be freed and the same arguments give the same handle; messages, MPI_Allreduce(MPI_SUM),
 * MPI_Reduce_local and external32 packing with it match its base type, also inside a derived type;
 * unsupported arguments are MPI_ERR_ARG under MPI_ERRORS_RETURN; MPI_Type_match_size is unchanged.
 * Prints "rank R: ok" when everything holds. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "axon_test.h"

static int rank, size, left, right;

static int err_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

enum f90_kind { F90_REAL, F90_COMPLEX, F90_INTEGER };

/* One call and what it must give. */
struct f90_case {
    enum f90_kind kind;
    int p, r;
    MPI_Datatype base;
};

#define U MPI_UNDEFINED
static const struct f90_case cases[] = {
    {F90_REAL, 3, 10, MPI_REAL4},       {F90_REAL, 3, U, MPI_REAL4},         {F90_REAL, U, 10, MPI_REAL4},
    {F90_REAL, 6, 37, MPI_REAL4},       {F90_REAL, 0, 0, MPI_REAL4},         {F90_REAL, -4, 12, MPI_REAL4},
    {F90_REAL, 7, 30, MPI_REAL8},       {F90_REAL, 7, U, MPI_REAL8},         {F90_REAL, U, 38, MPI_REAL8},
    {F90_REAL, 15, 307, MPI_REAL8},     {F90_REAL, 16, U, MPI_REAL16},       {F90_REAL, U, 308, MPI_REAL16},
    {F90_REAL, 33, 4931, MPI_REAL16},   {F90_COMPLEX, 3, 10, MPI_COMPLEX8},  {F90_COMPLEX, U, 30, MPI_COMPLEX8},
    {F90_COMPLEX, 7, U, MPI_COMPLEX16}, {F90_COMPLEX, 15, 300, MPI_COMPLEX16}, {F90_COMPLEX, 20, 20, MPI_COMPLEX32},
    {F90_INTEGER, U, -1, MPI_INTEGER1}, {F90_INTEGER, U, 2, MPI_INTEGER1},   {F90_INTEGER, U, 3, MPI_INTEGER2},
    {F90_INTEGER, U, 4, MPI_INTEGER2},  {F90_INTEGER, U, 5, MPI_INTEGER4},   {F90_INTEGER, U, 9, MPI_INTEGER4},
    {F90_INTEGER, U, 10, MPI_INTEGER8}, {F90_INTEGER, U, 18, MPI_INTEGER8},
};
#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

static int f90_create(const struct f90_case *c, MPI_Datatype *t)
{
    switch (c->kind) {
    case F90_REAL:
        return MPI_Type_create_f90_real(c->p, c->r, t);
    case F90_COMPLEX:
        return MPI_Type_create_f90_complex(c->p, c->r, t);
    default:
        return MPI_Type_create_f90_integer(c->r, t);
    }
}

static const int combiners[] = {MPI_COMBINER_F90_REAL, MPI_COMBINER_F90_COMPLEX, MPI_COMBINER_F90_INTEGER};

/* ---- 1. the type each call gives, its envelope and contents, handles and freeing ------------------- */

static void test_types(MPI_Datatype types[NCASES])
{
    for (int i = 0; i < NCASES; i++) {
        const struct f90_case *c = &cases[i];
        MPI_Datatype t = MPI_DATATYPE_NULL;
        EXPECT(f90_create(c, &t) == MPI_SUCCESS);
        types[i] = t;
        if (t == MPI_DATATYPE_NULL) {
            printf("rank %d FAILED: case %d gave no type\n", rank, i);
            failures++;
            continue;
        }
        MPI_Count s, bs, lb, ext, blb, bext, tlb, text;
        MPI_Type_size_x(t, &s);
        MPI_Type_size_x(c->base, &bs);
        MPI_Type_get_extent_x(t, &lb, &ext);
        MPI_Type_get_extent_x(c->base, &blb, &bext);
        MPI_Type_get_true_extent_x(t, &tlb, &text);
        if (s != bs || lb != blb || ext != bext || tlb != 0 || text != bs) {
            printf("rank %d FAILED: case %d (p %d r %d): size %lld lb %lld extent %lld true %lld/%lld, base size %lld "
                   "extent %lld\n",
                   rank, i, c->p, c->r, (long long)s, (long long)lb, (long long)ext, (long long)tlb, (long long)text,
                   (long long)bs, (long long)bext);
            failures++;
        }

        /* The envelope: the F90 combiner, (p, r) or (r), no addresses or types. */
        int ni = -1, na = -1, nd = -1, comb = -1, nints = c->kind == F90_INTEGER ? 1 : 2;
        EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS);
        EXPECT(comb == combiners[c->kind] && ni == nints && na == 0 && nd == 0);
        MPI_Count cni = -1, cna = -1, cnc = -1, cnd = -1;
        comb = -1;
        EXPECT(MPI_Type_get_envelope_c(t, &cni, &cna, &cnc, &cnd, &comb) == MPI_SUCCESS);
        EXPECT(comb == combiners[c->kind] && cni == nints && cna == 0 && cnc == 0 && cnd == 0);
        int ints[2] = {-7, -7};
        MPI_Aint addr;
        MPI_Datatype dt = MPI_DATATYPE_NULL;
        EXPECT(MPI_Type_get_contents(t, 2, 0, 0, ints, &addr, &dt) == MPI_SUCCESS);
        if (c->kind == F90_INTEGER)
            EXPECT(ints[0] == c->r && ints[1] == -7);
        else
            EXPECT(ints[0] == c->p && ints[1] == c->r);
        int cints[2] = {-7, -7};
        MPI_Count large;
        EXPECT(MPI_Type_get_contents_c(t, 2, 0, 0, 0, cints, &addr, &large, &dt) == MPI_SUCCESS);
        EXPECT(memcmp(ints, cints, sizeof(ints)) == 0);

        /* The same arguments, the same handle (the standard's predefined types); committing is harmless. */
        MPI_Datatype again = MPI_DATATYPE_NULL;
        EXPECT(f90_create(c, &again) == MPI_SUCCESS && again == t);
        EXPECT(MPI_Type_commit(&again) == MPI_SUCCESS && again == t);

        /* Not freeable; still usable after the refusal. */
        MPI_Datatype f = t;
        EXPECT(err_class(MPI_Type_free(&f)) == MPI_ERR_TYPE);
        EXPECT(f == t);
        int isize = 0;
        EXPECT(MPI_Type_size(t, &isize) == MPI_SUCCESS && isize == (int)bs);
    }
    /* Different arguments of one kind give different handles (the contents differ). */
    EXPECT(types[0] != types[1] && types[0] != types[2]);
}

/* ---- 2. communication and reductions match the base type -------------------------------------------- */

#define N 37

/* Values that the base type holds exactly and whose sums stay exact. */
static void fill(MPI_Datatype base, void *buf, int seed)
{
    for (int i = 0; i < N; i++) {
        int v = (seed * 7 + i * 3) % 50 - 20;
        if (base == MPI_REAL4)
            ((float *)buf)[i] = (float)v + 0.5f;
        else if (base == MPI_REAL8)
            ((double *)buf)[i] = v + 0.25;
        else if (base == MPI_REAL16)
            ((long double *)buf)[i] = 0; /* filled below, bytewise: the C type may differ from binary128 */
        else if (base == MPI_COMPLEX8)
            ((float *)buf)[2 * i] = (float)v, ((float *)buf)[2 * i + 1] = (float)-v - 0.5f;
        else if (base == MPI_COMPLEX16)
            ((double *)buf)[2 * i] = v, ((double *)buf)[2 * i + 1] = -v + 0.75;
        else if (base == MPI_INTEGER1)
            ((int8_t *)buf)[i] = (int8_t)(v % 20);
        else if (base == MPI_INTEGER2)
            ((int16_t *)buf)[i] = (int16_t)(v * 100);
        else if (base == MPI_INTEGER4)
            ((int32_t *)buf)[i] = v * 100000;
        else if (base == MPI_INTEGER8)
            ((int64_t *)buf)[i] = (int64_t)v * 10000000000LL;
    }
#if defined(__SIZEOF_FLOAT128__) && defined(__GNUC__) && !defined(__clang__)
    if (base == MPI_REAL16 || base == MPI_COMPLEX32) {
        int per = base == MPI_REAL16 ? 1 : 2;
        for (int i = 0; i < N * per; i++)
            ((_Float128 *)buf)[i] = (_Float128)((seed * 7 + i * 3) % 50 - 20) + 0.125;
    }
#else
    if (base == MPI_REAL16 || base == MPI_COMPLEX32)
        memset(buf, 0, (size_t)N * (base == MPI_REAL16 ? 16 : 32));
#endif
}

static void test_communication(const MPI_Datatype types[NCASES])
{
    _Alignas(16) char sendbuf[N * 32], recvbuf[N * 32], expect[N * 32], sum_f90[N * 32], sum_base[N * 32];
    for (int i = 0; i < NCASES; i++) {
        MPI_Datatype t = types[i], base = cases[i].base;
        if (t == MPI_DATATYPE_NULL)
            continue;
        int tsize;
        MPI_Type_size(base, &tsize);
        size_t bytes = (size_t)N * (size_t)tsize;

        /* A ring: the F90 type on both sides, the data as the left neighbour filled it. */
        memset(sendbuf, 0, sizeof(sendbuf));
        memset(expect, 0, sizeof(expect));
        fill(base, sendbuf, rank + i);
        fill(base, expect, left + i);
        memset(recvbuf, 0x5a, sizeof(recvbuf));
        MPI_Status st;
        EXPECT(MPI_Sendrecv(sendbuf, N, t, right, i, recvbuf, N, t, left, i, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        EXPECT(memcmp(recvbuf, expect, bytes) == 0);
        int count = -1, elements = -1;
        EXPECT(MPI_Get_count(&st, t, &count) == MPI_SUCCESS && count == N);
        EXPECT(MPI_Get_elements(&st, t, &elements) == MPI_SUCCESS && elements == N);

        /* MPI_SUM with the F90 type and with its base: the same bytes (or the same refusal, where the
         * compiler has no binary128 arithmetic). */
        memset(sum_f90, 0, sizeof(sum_f90));
        memset(sum_base, 0, sizeof(sum_base));
        int rc_base = MPI_Allreduce(sendbuf, sum_base, N, base, MPI_SUM, MPI_COMM_WORLD);
        int rc_f90 = MPI_Allreduce(sendbuf, sum_f90, N, t, MPI_SUM, MPI_COMM_WORLD);
        EXPECT(err_class(rc_f90) == err_class(rc_base));
        if (rc_base == MPI_SUCCESS && memcmp(sum_f90, sum_base, bytes) != 0) {
            printf("rank %d FAILED: MPI_Allreduce(MPI_SUM) of case %d differs from its base type's\n", rank, i);
            failures++;
        }
        if (cases[i].kind != F90_COMPLEX) {
            int rc_max = MPI_Allreduce(sendbuf, sum_base, N, base, MPI_MAX, MPI_COMM_WORLD);
            EXPECT(err_class(MPI_Allreduce(sendbuf, sum_f90, N, t, MPI_MAX, MPI_COMM_WORLD)) == err_class(rc_max));
            EXPECT(rc_max != MPI_SUCCESS || memcmp(sum_f90, sum_base, bytes) == 0);
        }

        /* MPI_Reduce_local, as MPICH's createf90types does. */
        memcpy(sum_f90, sendbuf, bytes);
        memcpy(sum_base, sendbuf, bytes);
        rc_base = MPI_Reduce_local(expect, sum_base, N, base, MPI_SUM);
        EXPECT(err_class(MPI_Reduce_local(expect, sum_f90, N, t, MPI_SUM)) == err_class(rc_base));
        EXPECT(rc_base != MPI_SUCCESS || memcmp(sum_f90, sum_base, bytes) == 0);

        /* external32: the base type's representation. */
        char ext_f90[N * 32], ext_base[N * 32];
        MPI_Aint pos_f90 = 0, pos_base = 0;
        int rc_ext = MPI_Pack_external("external32", sendbuf, N, base, ext_base, sizeof(ext_base), &pos_base);
        EXPECT(err_class(MPI_Pack_external("external32", sendbuf, N, t, ext_f90, sizeof(ext_f90), &pos_f90)) ==
               err_class(rc_ext));
        EXPECT(rc_ext != MPI_SUCCESS || (pos_f90 == pos_base && memcmp(ext_f90, ext_base, (size_t)pos_base) == 0));
    }
}

/* ---- 3. derived types built on them, duplicates ---------------------------------------------------- */

static void test_derived(void)
{
    MPI_Datatype r8, vec, dup;
    EXPECT(MPI_Type_create_f90_real(10, 100, &r8) == MPI_SUCCESS);
    /* Three of them in a row: reduces as MPI_REAL8, and its contents name the F90 type. */
    EXPECT(MPI_Type_contiguous(3, r8, &vec) == MPI_SUCCESS);
    EXPECT(MPI_Type_commit(&vec) == MPI_SUCCESS);
    double in[6], out[6], want[6];
    for (int i = 0; i < 6; i++)
        in[i] = rank * 10 + i;
    for (int i = 0; i < 6; i++)
        want[i] = 10.0 * size * (size - 1) / 2 + (double)size * i;
    EXPECT(MPI_Allreduce(in, out, 2, vec, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(memcmp(out, want, sizeof(out)) == 0);
    int ni, na, nd, comb, cnt;
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && nd == 1);
    EXPECT(MPI_Type_get_contents(vec, 1, 0, 1, &cnt, NULL, &inner) == MPI_SUCCESS && cnt == 3 && inner == r8);
    EXPECT(MPI_Type_free(&vec) == MPI_SUCCESS);
    /* The F90 type outlives the type built on it. */
    double x = 1.5, y = 2.25;
    EXPECT(MPI_Reduce_local(&x, &y, 1, r8, MPI_SUM) == MPI_SUCCESS && y == 3.75);

    /* A duplicate is an ordinary derived type: MPI_COMBINER_DUP, and the caller frees it. */
    EXPECT(MPI_Type_dup(r8, &dup) == MPI_SUCCESS);
    MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_DUP && nd == 1);
    x = 1.5, y = 2.25;
    EXPECT(MPI_Reduce_local(&x, &y, 1, dup, MPI_PROD) == MPI_SUCCESS && y == 3.375);
    EXPECT(MPI_Type_free(&dup) == MPI_SUCCESS && dup == MPI_DATATYPE_NULL);
    MPI_Datatype again;
    EXPECT(MPI_Type_create_f90_real(10, 100, &again) == MPI_SUCCESS && again == r8);
}

/* ---- 4. errors and MPI_Type_match_size -------------------------------------------------------------- */

static void test_errors(void)
{
    MPI_Datatype t = MPI_INT;
    EXPECT(err_class(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
    EXPECT(t == MPI_DATATYPE_NULL);
    t = MPI_INT;
    EXPECT(err_class(MPI_Type_create_f90_real(34, MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
    EXPECT(t == MPI_DATATYPE_NULL);
    EXPECT(err_class(MPI_Type_create_f90_real(MPI_UNDEFINED, 4932, &t)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Type_create_f90_real(7, 5000, &t)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Type_create_f90_complex(40, 10, &t)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Type_create_f90_complex(MPI_UNDEFINED, MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
    t = MPI_INT;
    EXPECT(err_class(MPI_Type_create_f90_integer(19, &t)) == MPI_ERR_ARG);
    EXPECT(t == MPI_DATATYPE_NULL);
    EXPECT(err_class(MPI_Type_create_f90_integer(MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Type_create_f90_real(3, 10, NULL)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Type_create_f90_integer(3, NULL)) == MPI_ERR_ARG);

    MPI_Datatype m = MPI_DATATYPE_NULL;
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m) == MPI_SUCCESS && m == MPI_REAL8);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &m) == MPI_SUCCESS && m == MPI_INTEGER2);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 32, &m) == MPI_SUCCESS && m == MPI_COMPLEX32);
    EXPECT(err_class(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &m)) == MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;

    MPI_Datatype types[NCASES];
    test_types(types);
    test_communication(types);
    test_derived();
    test_errors();
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
