/* The set logic of groups, on plain arrays of member ids (MPI_COMM_WORLD ranks): inclusion, exclusion
 * and rank ranges with the standard's checks, union, intersection and difference in the standard's
 * order, rank translation and comparison. No MPI state, so tests/unit/test_group_ops.c checks it
 * against hand-computed results. Membership tests go through a sorted copy (binary search), so the
 * operations stay O(n log n) for groups of any size. */
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

/* A member id and its rank in its group, sorted by id: membership and rank lookup by binary search. */
struct axon_group_index {
    int id, rank;
};

static int axon_group_index_cmp(const void *a, const void *b)
{
    int x = ((const struct axon_group_index *)a)->id, y = ((const struct axon_group_index *)b)->id;
    return (x > y) - (x < y);
}

static struct axon_group_index *axon_group_index_build(const int *members, int n)
{
    struct axon_group_index *ix = malloc(sizeof(*ix) * (size_t)(n > 0 ? n : 1));
    if (!ix)
        return NULL;
    for (int i = 0; i < n; i++)
        ix[i] = (struct axon_group_index){members[i], i};
    qsort(ix, (size_t)n, sizeof(*ix), axon_group_index_cmp);
    return ix;
}

/* The rank of id in the indexed group, or MPI_UNDEFINED. */
static int axon_group_index_find(const struct axon_group_index *ix, int n, int id)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (ix[mid].id == id)
            return ix[mid].rank;
        if (ix[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return MPI_UNDEFINED;
}

int axon_group_ops_find(const int *a, int na, int id)
{
    for (int i = 0; i < na; i++)
        if (a[i] == id)
            return i;
    return MPI_UNDEFINED;
}

int axon_group_ops_incl(const int *members, int size, int n, const int *ranks, int *out, int *bad)
{
    if (n < 0 || n > size)
        return MPI_ERR_ARG;
    unsigned char *seen = calloc((size_t)size + 1, 1);
    if (!seen)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= size || seen[r]) {
            if (bad)
                *bad = i;
            rc = MPI_ERR_RANK;
            break;
        }
        seen[r] = 1;
        out[i] = members[r];
    }
    free(seen);
    return rc;
}

int axon_group_ops_excl(const int *members, int size, int n, const int *ranks, int *out, int *outn, int *bad)
{
    if (n < 0 || n > size)
        return MPI_ERR_ARG;
    unsigned char *drop = calloc((size_t)size + 1, 1);
    if (!drop)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= size || drop[r]) {
            if (bad)
                *bad = i;
            free(drop);
            return MPI_ERR_RANK;
        }
        drop[r] = 1;
    }
    int k = 0;
    for (int r = 0; r < size; r++)
        if (!drop[r])
            out[k++] = members[r];
    *outn = k;
    free(drop);
    return MPI_SUCCESS;
}

int axon_group_ops_ranges(const int *members, int size, int n, const int (*ranges)[3], bool exclude, int *out,
                          int *outn, int *bad)
{
    if (n < 0)
        return MPI_ERR_ARG;
    unsigned char *mark = calloc((size_t)size + 1, 1);
    if (!mark)
        return MPI_ERR_NO_MEM;
    int k = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        /* A triplet that walks away from its last rank is no range at all (MPICH rejects it too). */
        if (stride == 0 || (stride > 0 && first > last) || (stride < 0 && first < last)) {
            rc = MPI_ERR_ARG;
        } else if (first < 0 || first >= size || last < 0 || last >= size) {
            rc = MPI_ERR_RANK;
        } else {
            /* long: first + stride may step past INT_MAX on the last step. */
            for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                if (mark[r]) {
                    rc = MPI_ERR_RANK; /* every computed rank must be distinct */
                    break;
                }
                mark[r] = 1;
                if (!exclude)
                    out[k++] = members[r];
            }
        }
        if (rc != MPI_SUCCESS && bad)
            *bad = i;
    }
    if (rc == MPI_SUCCESS && exclude)
        for (int r = 0; r < size; r++)
            if (!mark[r])
                out[k++] = members[r];
    free(mark);
    if (rc == MPI_SUCCESS)
        *outn = k;
    return rc;
}

/* The members of `from` that are (keep_members) or are not in `other`, in from's order, after `start`
 * entries already in out. */
static int axon_group_filter(const int *from, int nfrom, const int *other, int nother, bool keep_members, int *out,
                             int start, int *outn)
{
    struct axon_group_index *ix = axon_group_index_build(other, nother);
    if (!ix)
        return MPI_ERR_NO_MEM;
    int k = start;
    for (int i = 0; i < nfrom; i++) {
        bool member = axon_group_index_find(ix, nother, from[i]) != MPI_UNDEFINED;
        if (member == keep_members)
            out[k++] = from[i];
    }
    free(ix);
    *outn = k;
    return MPI_SUCCESS;
}

int axon_group_ops_union(const int *a, int na, const int *b, int nb, int *out, int *outn)
{
    /* a's members in a's order, then b's members that a lacks, in b's order. */
    if (na > 0)
        memcpy(out, a, sizeof(int) * (size_t)na);
    return axon_group_filter(b, nb, a, na, false, out, na, outn);
}

int axon_group_ops_intersection(const int *a, int na, const int *b, int nb, int *out, int *outn)
{
    return axon_group_filter(a, na, b, nb, true, out, 0, outn);
}

int axon_group_ops_difference(const int *a, int na, const int *b, int nb, int *out, int *outn)
{
    return axon_group_filter(a, na, b, nb, false, out, 0, outn);
}

int axon_group_ops_translate(const int *a, int na, int n, const int *ranks1, const int *b, int nb, int *ranks2,
                             int *bad)
{
    if (n < 0)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= na)) {
            if (bad)
                *bad = i;
            return MPI_ERR_RANK;
        }
    struct axon_group_index *ix = axon_group_index_build(b, nb);
    if (!ix)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : axon_group_index_find(ix, nb, a[ranks1[i]]);
    free(ix);
    return MPI_SUCCESS;
}

int axon_group_ops_compare(const int *a, int na, const int *b, int nb)
{
    if (na != nb)
        return MPI_UNEQUAL;
    if (na == 0 || memcmp(a, b, sizeof(int) * (size_t)na) == 0)
        return MPI_IDENT;
    /* The same size and members are distinct within a group: b has all of a's members iff similar. */
    struct axon_group_index *ix = axon_group_index_build(b, nb);
    if (!ix)
        return MPI_UNEQUAL;
    int result = MPI_SIMILAR;
    for (int i = 0; i < na && result == MPI_SIMILAR; i++)
        if (axon_group_index_find(ix, nb, a[i]) == MPI_UNDEFINED)
            result = MPI_UNEQUAL;
    free(ix);
    return result;
}
