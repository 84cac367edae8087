/* Memory allocation kinds (MPI 4.1 section 11.4.3, and the MPI Forum's Memory Allocation Kinds side
 * document for "cuda"): the info key "mpi_memory_alloc_kinds", through which a program asks for kinds of
 * memory (at launch: mpirun -memory-alloc-kinds, which sets AXON_MEMORY_ALLOC_KINDS; or in the info of
 * MPI_Session_init) and learns which of them the library takes as buffers: in MPI_INFO_ENV for the world
 * model, from MPI_Session_get_info for a session, from MPI_Comm_get_info for a communicator.
 *
 * A kind is a name and restrictors, "cuda:device". Axon takes "system" (memory the program allocates),
 * "mpi" with the restrictors "alloc_mem", "win_allocate" and "win_allocate_shared" (the memory MPI hands
 * out) and, while CUDA support is on, "cuda" with "host", "device" and "managed" (every CUDA allocation is
 * classified per buffer; MPI_Win_allocate makes its memory on the GPU when its own info asks for
 * "cuda:device"). The answer lists the supported kinds bare, then each kind asked for that is
 * supported, as the program spelled it; a kind asked for and not supported is left out, which is how the
 * program learns it (MPICH answers the same way). A communicator whose info asserts
 * "mpi_assert_memory_alloc_kinds" answers with the asserted kinds that are supported; when they name no
 * GPU kind its buffers are host memory, and the library skips their memory-type checks. */
#include "mpi/comm/axon_mpi_comm.h"

#include "memkind/axon_memkind.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct axon_mpi_memkind {
    const char *name;
    const char *const *restrictors; /* NULL-terminated */
    bool (*available)(void);
};

static bool axon_mpi_memkind_always(void)
{
    return true;
}

static bool axon_mpi_memkind_cuda(void)
{
    return axon_memkind_kind_enabled(AXON_MEMKIND_CUDA);
}

static const char *const axon_mpi_memkind_mpi_restrictors[] = {"alloc_mem", "win_allocate", "win_allocate_shared",
                                                               NULL};
static const char *const axon_mpi_memkind_none[] = {NULL};
static const char *const axon_mpi_memkind_cuda_restrictors[] = {"host", "device", "managed", NULL};

static const struct axon_mpi_memkind axon_mpi_memkind_table[] = {
    {"mpi", axon_mpi_memkind_mpi_restrictors, axon_mpi_memkind_always},
    {"system", axon_mpi_memkind_none, axon_mpi_memkind_always},
    {"cuda", axon_mpi_memkind_cuda_restrictors, axon_mpi_memkind_cuda},
};

enum { AXON_MPI_MEMKINDS = AXON_ARRAY_SIZE(axon_mpi_memkind_table) };

/* Whether the kind spelled in text[0..len) ("cuda:device:managed") is supported: its name is a kind
 * available now and each restrictor is one of that kind's (case aside, as MPICH compares). */
static bool axon_mpi_memkind_supported(const char *text, size_t len)
{
    size_t name_len = 0;
    while (name_len < len && text[name_len] != ':')
        name_len++;
    for (int k = 0; k < AXON_MPI_MEMKINDS; k++) {
        const struct axon_mpi_memkind *m = &axon_mpi_memkind_table[k];
        if (strlen(m->name) != name_len || strncasecmp(m->name, text, name_len) != 0 || !m->available())
            continue;
        size_t at = name_len;
        while (at < len) {
            size_t start = ++at; /* past the ':' */
            while (at < len && text[at] != ':')
                at++;
            bool known = false;
            for (const char *const *r = m->restrictors; *r && !known; r++)
                known = strlen(*r) == at - start && strncasecmp(*r, text + start, at - start) == 0;
            if (!known)
                return false;
        }
        return true;
    }
    return false;
}

/* Appends the kind text[0..len) to the list out (used bytes *n of size), unless it is there already or
 * empty. False when the list is full. */
static bool axon_mpi_memkind_append(char *out, size_t size, size_t *n, const char *text, size_t len)
{
    if (len == 0)
        return true;
    for (const char *p = out; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && strncasecmp(p, text, len) == 0)
            return true;
        p = end ? end + 1 : p + l;
    }
    size_t need = (*n ? 1 : 0) + len;
    if (*n + need + 1 > size)
        return false;
    if (*n)
        out[(*n)++] = ',';
    memcpy(out + *n, text, len);
    *n += len;
    out[*n] = '\0';
    return true;
}

/* The next kind of the comma-separated list at *p, blanks around it left out (*kind, *len; possibly
 * empty); false at the list's end. */
static bool axon_mpi_memkind_next(const char **p, const char **kind, size_t *len)
{
    if (!*p || !**p)
        return false;
    const char *end = strchr(*p, ',');
    const char *t = *p;
    size_t l = end ? (size_t)(end - t) : strlen(t);
    while (l > 0 && (*t == ' ' || *t == '\t'))
        t++, l--;
    while (l > 0 && (t[l - 1] == ' ' || t[l - 1] == '\t'))
        l--;
    *kind = t;
    *len = l;
    *p = end ? end + 1 : NULL;
    return true;
}

/* The supported kinds of the list appended to out. */
static bool axon_mpi_memkind_append_supported(char *out, size_t size, size_t *n, const char *list)
{
    const char *kind;
    size_t len;
    while (axon_mpi_memkind_next(&list, &kind, &len))
        if (axon_mpi_memkind_supported(kind, len) && !axon_mpi_memkind_append(out, size, n, kind, len))
            return false;
    return true;
}

int axon_mpi_memkinds_resolve(const char *requested, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int k = 0; k < AXON_MPI_MEMKINDS; k++)
        if (axon_mpi_memkind_table[k].available() &&
            !axon_mpi_memkind_append(out, size, &n, axon_mpi_memkind_table[k].name, strlen(axon_mpi_memkind_table[k].name)))
            return MPI_ERR_INFO_VALUE;
    return axon_mpi_memkind_append_supported(out, size, &n, requested) ? MPI_SUCCESS : MPI_ERR_INFO_VALUE;
}

int axon_mpi_memkinds_restrict(const char *asserted, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    return axon_mpi_memkind_append_supported(out, size, &n, asserted) ? MPI_SUCCESS : MPI_ERR_INFO_VALUE;
}

int axon_mpi_memkinds_world(char *out, size_t size)
{
    return axon_mpi_memkinds_resolve(getenv("AXON_MEMORY_ALLOC_KINDS"), out, size);
}

bool axon_mpi_memkinds_host_only(MPI_Info info)
{
    char asserted[MPI_MAX_INFO_VAL];
    int buflen = (int)sizeof(asserted), flag = 0;
    if (info == MPI_INFO_NULL ||
        PMPI_Info_get_string(info, AXON_MPI_MEMKINDS_ASSERT_KEY, &buflen, asserted, &flag) != MPI_SUCCESS || !flag)
        return false;
    /* Every kind named is system or mpi (with any restrictors), and there is one at least. */
    int kinds = 0;
    const char *list = asserted, *kind;
    size_t len;
    while (axon_mpi_memkind_next(&list, &kind, &len)) {
        size_t name = 0;
        while (name < len && kind[name] != ':')
            name++;
        if (name == 0)
            continue;
        if (!((name == 6 && strncasecmp(kind, "system", 6) == 0) || (name == 3 && strncasecmp(kind, "mpi", 3) == 0)))
            return false;
        kinds++;
    }
    return kinds > 0;
}

bool axon_mpi_memkinds_asks_device(const char *list)
{
    const char *kind;
    size_t len;
    while (axon_mpi_memkind_next(&list, &kind, &len)) {
        if (len < 5 || strncasecmp(kind, "cuda:", 5) != 0 || !axon_mpi_memkind_supported(kind, len))
            continue;
        for (size_t at = 4; at < len;) {
            size_t start = ++at;
            while (at < len && kind[at] != ':')
                at++;
            if (at - start == 6 && strncasecmp(kind + start, "device", 6) == 0)
                return true;
        }
    }
    return false;
}
