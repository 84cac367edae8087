/* The cost model (coll/axon_coll_model.h): defaults, the tuning file's keys and reader, and the level of
 * a pair of ranks in a topology description (runtime/axon_runtime_topo.h reads those). Pure logic:
 * nothing here knows about MPI state or schedules. */
#include "coll/axon_coll_model.h"

#include "runtime/axon_runtime_array.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const axon_coll_level_names[AXON_COLL_NLEVELS] = {"domain", "node", "fabric"};

const char *axon_coll_level_name(enum axon_coll_level level)
{
    return (unsigned)level < AXON_COLL_NLEVELS ? axon_coll_level_names[level] : "?";
}

/* ---- topology ------------------------------------------------------------------------------------- */

enum axon_coll_level axon_coll_topo_level(const struct axon_runtime_topo_spec *t, int a, int b)
{
    if (axon_runtime_topo_spec_node(t, a) != axon_runtime_topo_spec_node(t, b))
        return AXON_COLL_LEVEL_FABRIC;
    if (axon_runtime_topo_spec_domain(t, a) != axon_runtime_topo_spec_domain(t, b))
        return AXON_COLL_LEVEL_NODE;
    return AXON_COLL_LEVEL_DOMAIN;
}

/* ---- costs ---------------------------------------------------------------------------------------- */

void axon_coll_model_defaults(struct axon_coll_model *m)
{
    *m = (struct axon_coll_model){
        .level =
            {
                [AXON_COLL_LEVEL_DOMAIN] = {.alpha = 2e-6, .beta = 1 / 150e9, .gamma = 1 / 1000e9, .launch = 6e-6,
                                            .call = 5e-6},
                [AXON_COLL_LEVEL_NODE] = {.alpha = 0.3e-6, .beta = 1 / 10e9, .gamma = 1 / 8e9, .capacity = 100e9},
                [AXON_COLL_LEVEL_FABRIC] = {.alpha = 2e-6, .beta = 1 / 25e9, .gamma = 0},
            },
        .overhead = 0.2e-6,
        .copy_beta = 1 / 10e9,
        .call = 0.2e-6,
        .eager_max = 8192,
    };
}

/* The keys of the tuning file and where their values go. */
struct axon_coll_model_key {
    const char *name;
    size_t offset;
    bool integer;
};
#define AXON_LEVEL_KEY(lv, field)                                                                                \
    {                                                                                                            \
        #lv "." #field, offsetof(struct axon_coll_model, level) +                                                \
                            AXON_COLL_LEVEL_##lv * sizeof(struct axon_coll_model_level) +                        \
                            offsetof(struct axon_coll_model_level, field),                                       \
            false                                                                                                \
    }
enum { AXON_COLL_LEVEL_domain = AXON_COLL_LEVEL_DOMAIN, AXON_COLL_LEVEL_node = AXON_COLL_LEVEL_NODE,
       AXON_COLL_LEVEL_fabric = AXON_COLL_LEVEL_FABRIC };
static const struct axon_coll_model_key axon_coll_model_keys[] = {
    AXON_LEVEL_KEY(domain, alpha),
    AXON_LEVEL_KEY(domain, beta),
    AXON_LEVEL_KEY(domain, gamma),
    AXON_LEVEL_KEY(domain, capacity),
    AXON_LEVEL_KEY(domain, launch),
    AXON_LEVEL_KEY(domain, call),
    AXON_LEVEL_KEY(node, alpha),
    AXON_LEVEL_KEY(node, beta),
    AXON_LEVEL_KEY(node, gamma),
    AXON_LEVEL_KEY(node, capacity),
    AXON_LEVEL_KEY(node, capacity_min),
    AXON_LEVEL_KEY(fabric, alpha),
    AXON_LEVEL_KEY(fabric, beta),
    AXON_LEVEL_KEY(fabric, gamma),
    {"overhead", offsetof(struct axon_coll_model, overhead), false},
    {"copy_beta", offsetof(struct axon_coll_model, copy_beta), false},
    {"call", offsetof(struct axon_coll_model, call), false},
    {"eager_max", offsetof(struct axon_coll_model, eager_max), true},
    {"host.capacity", offsetof(struct axon_coll_model, host_capacity), false},
};
enum { AXON_COLL_MODEL_NKEYS = AXON_ARRAY_SIZE(axon_coll_model_keys) };

int axon_coll_model_set(struct axon_coll_model *m, const char *key, const char *value, char *why, size_t whylen)
{
    const struct axon_coll_model_key *k = NULL;
    for (int i = 0; i < AXON_COLL_MODEL_NKEYS && !k; i++)
        if (strcmp(axon_coll_model_keys[i].name, key) == 0)
            k = &axon_coll_model_keys[i];
    if (!k) {
        char known[512];
        size_t len = 0;
        for (int i = 0; i < AXON_COLL_MODEL_NKEYS && len < sizeof(known); i++)
            len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
                                    axon_coll_model_keys[i].name);
        axon_runtime_why(why, whylen, "unknown key '%s' (keys: %s)", key, known);
        return MPI_ERR_ARG;
    }
    char *end;
    errno = 0;
    if (k->integer) {
        long long v = strtoll(value, &end, 10);
        if (end == value || *end || errno || v < 0) {
            axon_runtime_why(why, whylen, "%s needs an integer >= 0, not '%s'", key, value);
            return MPI_ERR_ARG;
        }
        *(int64_t *)((char *)m + k->offset) = v;
    } else {
        double v = strtod(value, &end);
        if (end == value || *end || errno || !isfinite(v) || v < 0) {
            axon_runtime_why(why, whylen, "%s needs a number >= 0 (such as 2e-6), not '%s'", key, value);
            return MPI_ERR_ARG;
        }
        *(double *)((char *)m + k->offset) = v;
    }
    return MPI_SUCCESS;
}

/* Cuts the blanks off both ends of [*p, *end). */
static void axon_coll_model_trim(const char **p, const char **end)
{
    while (*p < *end && isspace((unsigned char)**p))
        (*p)++;
    while (*end > *p && isspace((unsigned char)(*end)[-1]))
        (*end)--;
}

int axon_coll_model_parse(struct axon_coll_model *m, const char *text, char *why, size_t whylen)
{
    struct axon_coll_model tmp = *m;
    int line = 0;
    for (const char *p = text; p && *p;) {
        line++;
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        const char *hash = memchr(p, '#', (size_t)(end - p));
        const char *stop = hash ? hash : end;
        const char *a = p, *z = stop;
        axon_coll_model_trim(&a, &z);
        if (a < z) {
            const char *eq = memchr(a, '=', (size_t)(z - a));
            if (!eq) {
                axon_runtime_why(why, whylen, "line %d: '%.*s' is not 'key = value'", line, (int)(z - a), a);
                return MPI_ERR_ARG;
            }
            const char *ka = a, *kz = eq, *va = eq + 1, *vz = z;
            axon_coll_model_trim(&ka, &kz);
            axon_coll_model_trim(&va, &vz);
            char key[64], value[128];
            if (kz - ka >= (long)sizeof(key) || vz - va >= (long)sizeof(value)) {
                axon_runtime_why(why, whylen, "line %d: key or value too long", line);
                return MPI_ERR_ARG;
            }
            memcpy(key, ka, (size_t)(kz - ka));
            key[kz - ka] = 0;
            memcpy(value, va, (size_t)(vz - va));
            value[vz - va] = 0;
            char sub[512];
            if (axon_coll_model_set(&tmp, key, value, sub, sizeof(sub)) != MPI_SUCCESS) {
                axon_runtime_why(why, whylen, "line %d: %s", line, sub);
                return MPI_ERR_ARG;
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    *m = tmp;
    return MPI_SUCCESS;
}

int axon_coll_model_load(struct axon_coll_model *m, const char *path, char *why, size_t whylen)
{
    int rc = MPI_SUCCESS;
    char *text = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        axon_runtime_why(why, whylen, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? MPI_ERR_NO_SUCH_FILE : MPI_ERR_FILE;
    }
    /* A tuning file is a few lines: 1 MiB is far beyond any, and a bound against reading a device. */
    enum { AXON_COLL_MODEL_MAX_FILE = 1 << 20 };
    text = malloc(AXON_COLL_MODEL_MAX_FILE + 1);
    if (!text) {
        rc = MPI_ERR_NO_MEM;
        goto out_close;
    }
    size_t len = fread(text, 1, AXON_COLL_MODEL_MAX_FILE + 1, f);
    if (ferror(f) || len > AXON_COLL_MODEL_MAX_FILE) {
        axon_runtime_why(why, whylen, "%s: %s", path, ferror(f) ? "read error" : "larger than 1 MiB");
        rc = MPI_ERR_FILE;
        goto out_free;
    }
    text[len] = 0;
    if (memchr(text, 0, len)) {
        axon_runtime_why(why, whylen, "%s: not a text file", path);
        rc = MPI_ERR_FILE;
        goto out_free;
    }
    char sub[512];
    rc = axon_coll_model_parse(m, text, sub, sizeof(sub));
    if (rc != MPI_SUCCESS)
        axon_runtime_why(why, whylen, "%s: %s", path, sub);
out_free:
    free(text);
out_close:
    fclose(f);
    return rc;
}

void axon_coll_model_print(const struct axon_coll_model *m, FILE *out)
{
    fprintf(out, "# Axon cost model: seconds, seconds per byte, bytes per second (capacity), bytes (eager_max)\n");
    for (int i = 0; i < AXON_COLL_MODEL_NKEYS; i++) {
        const struct axon_coll_model_key *k = &axon_coll_model_keys[i];
        if (k->integer)
            fprintf(out, "%s = %lld\n", k->name, (long long)*(const int64_t *)((const char *)m + k->offset));
        else
            fprintf(out, "%s = %.9g\n", k->name, *(const double *)((const char *)m + k->offset));
    }
}

double axon_coll_model_message(const struct axon_coll_model *m, enum axon_coll_level level, int64_t bytes)
{
    return m->level[level].alpha + (double)bytes * m->level[level].beta;
}
