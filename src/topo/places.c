/* places.c — turning OMP_PLACES (parsed by config/parse.c) into places of the machine model. */
#include "topo/places.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"

struct places places;

/* A place list being appended to. */
struct list_builder {
    struct place_list *l; /* the list (first[] has room for n + 1) */
    unsigned cap_places;  /* room in first[] */
    unsigned cap_cpus;    /* room in cpus[] */
    bool oom;             /* an allocation failed */
};

static void lb_init(struct list_builder *b, struct place_list *out)
{
    place_list_free(out);
    b->l = out;
    b->cap_places = b->cap_cpus = 0;
    b->oom = false;
}

/* Starts a new place. */
static void lb_open(struct list_builder *b)
{
    struct place_list *l = b->l;
    if (l->n + 2 > b->cap_places) {
        unsigned cap = b->cap_places ? 2 * b->cap_places : 16;
        unsigned *grown = realloc(l->first, cap * sizeof *grown);
        if (!grown) {
            b->oom = true;
            return;
        }
        l->first = grown;
        b->cap_places = cap;
    }
    unsigned used = l->n ? l->first[l->n] : 0;
    l->first[l->n] = used;
    l->first[l->n + 1] = used;
    l->n++;
}

/* Adds a CPU to the open place (callers add in increasing order). */
static void lb_add(struct list_builder *b, int cpu)
{
    struct place_list *l = b->l;
    if (b->oom || l->n == 0)
        return;
    unsigned used = l->first[l->n];
    if (used + 1 > b->cap_cpus) {
        unsigned cap = b->cap_cpus ? 2 * b->cap_cpus : 64;
        int *grown = realloc(l->cpus, cap * sizeof *grown);
        if (!grown) {
            b->oom = true;
            return;
        }
        l->cpus = grown;
        b->cap_cpus = cap;
    }
    l->cpus[used] = cpu;
    l->first[l->n] = used + 1;
}

/* Drops the open place if it got no CPU. */
static void lb_close(struct list_builder *b)
{
    struct place_list *l = b->l;
    if (!b->oom && l->n && l->first[l->n] == l->first[l->n - 1])
        l->n--;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts each place's CPUs and drops duplicates (real CPUs of a what-if
 * place may repeat). */
static void lb_normalize(struct place_list *l)
{
    unsigned w = 0;
    for (unsigned i = 0; i < l->n; i++) {
        unsigned lo = l->first[i], hi = l->first[i + 1];
        qsort(l->cpus + lo, hi - lo, sizeof *l->cpus, cmp_int);
        unsigned start = w;
        for (unsigned k = lo; k < hi; k++)
            if (w == start || l->cpus[w - 1] != l->cpus[k])
                l->cpus[w++] = l->cpus[k];
        l->first[i] = start;
    }
    if (l->n)
        l->first[l->n] = w;
}

/* The group a core belongs to for an abstract name (threads: -1). */
static int group_of(const struct topo_model *m, int kind, int c)
{
    switch (kind) {
    case PLACES_CORES: return c;
    case PLACES_LL_CACHES: return m->core_llc[c];
    case PLACES_NUMA_DOMAINS: return m->core_node[c];
    case PLACES_SOCKETS: return m->core_package[c];
    default: return -1;
    }
}

static int groups_of(const struct topo_model *m, int kind)
{
    switch (kind) {
    case PLACES_CORES: return m->ncores;
    case PLACES_LL_CACHES: return m->nllcs;
    case PLACES_NUMA_DOMAINS: return m->nnodes;
    case PLACES_SOCKETS: return m->npackages;
    default: return 0;
    }
}

bool places_from_model(const struct topo_model *m, int kind, unsigned long count,
                       const bool *excluded, struct place_list *out)
{
    struct list_builder b;
    lb_init(&b, out);
    if (kind == PLACES_THREADS) {
        for (int c = 0; c < m->ncores; c++)
            for (int p = m->core_first_pu[c]; !(excluded && excluded[c]) &&
                                              p < m->core_first_pu[c + 1]; p++) {
                lb_open(&b);
                lb_add(&b, m->pu_os[p]);
            }
    } else {
        int groups = groups_of(m, kind);
        for (int g = 0; g < groups; g++) {
            lb_open(&b);
            for (int c = 0; c < m->ncores; c++)
                if (group_of(m, kind, c) == g && !(excluded && excluded[c]))
                    for (int p = m->core_first_pu[c]; p < m->core_first_pu[c + 1]; p++)
                        lb_add(&b, m->pu_os[p]);
            lb_close(&b);
        }
    }
    if (b.oom)
        ilan_fatal("out of memory building the place list");
    lb_normalize(out);
    if (count > 0 && count < out->n)
        out->n = (unsigned)count;
    return out->n > 0;
}

/* Model PU of OS CPU `cpu`, or -1. */
static int pu_of_os(const struct topo_model *m, int cpu)
{
    for (int p = 0; p < m->npus; p++)
        if (m->pu_os[p] == cpu)
            return p;
    return -1;
}

bool places_filter(const struct topo_model *m, const struct place_list *in,
                   struct place_list *out, unsigned *dropped)
{
    struct list_builder b;
    lb_init(&b, out);
    *dropped = 0;
    for (unsigned i = 0; i < in->n; i++) {
        bool ok = true;
        for (unsigned k = in->first[i]; k < in->first[i + 1] && ok; k++)
            ok = pu_of_os(m, in->cpus[k]) >= 0;
        if (!ok) {
            (*dropped)++;
            continue;
        }
        lb_open(&b);
        for (unsigned k = in->first[i]; k < in->first[i + 1]; k++)
            lb_add(&b, in->cpus[k]);
    }
    if (b.oom)
        ilan_fatal("out of memory building the place list");
    return out->n > 0;
}

/* Fills places.real and places.node from places.os. */
static void places_map(void)
{
    struct list_builder b;
    lb_init(&b, &places.real);
    free(places.node);
    places.node = calloc(places.os.n ? places.os.n : 1, sizeof *places.node);
    if (!places.node)
        ilan_fatal("out of memory building the place list");
    for (unsigned i = 0; i < places.os.n; i++) {
        lb_open(&b);
        for (unsigned k = places.os.first[i]; k < places.os.first[i + 1]; k++) {
            int pu = pu_of_os(&topo, places.os.cpus[k]);
            lb_add(&b, topo.pu_real[pu]);
            if (k == places.os.first[i])
                places.node[i] = topo.core_node[topo.pu_core[pu]];
        }
    }
    if (b.oom)
        ilan_fatal("out of memory building the place list");
    lb_normalize(&places.real);
}

/* Writes a place as libgomp does: runs of consecutive CPUs as start:length. */
static unsigned long format_place(char *buf, unsigned long size, const int *cpus, unsigned n)
{
    unsigned long len = 0;
    len += (unsigned long)snprintf(buf, size, "{");
    for (unsigned i = 0; i < n;) {
        unsigned j = i;
        while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
            j++;
        const char *sep = i ? "," : "";
        char *at = len < size ? buf + len : NULL;
        unsigned long room = len < size ? size - len : 0;
        if (j > i)
            len += (unsigned long)snprintf(at, room, "%s%d:%u", sep, cpus[i], j - i + 1);
        else
            len += (unsigned long)snprintf(at, room, "%s%d", sep, cpus[i]);
        i = j + 1;
    }
    len += (unsigned long)snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "}");
    return len;
}

void places_format(char *buf, unsigned long size)
{
    unsigned long len = 0;
    if (size)
        buf[0] = '\0';
    for (unsigned i = 0; i < places.os.n && len + 1 < size; i++) {
        if (i)
            len += (unsigned long)snprintf(buf + len, size - len, ",");
        if (len + 1 >= size)
            break;
        len += format_place(buf + len, size - len, places.os.cpus + places.os.first[i],
                            places.os.first[i + 1] - places.os.first[i]);
    }
    if (size && len >= size)
        buf[size - 1] = '\0';
}

/* Keeps the places of `given` whose CPUs all belong to the model in
 * places.os; one warning line naming `var` when some were dropped. False
 * when none is left. */
static bool places_keep_usable(const struct place_list *given, const char *var)
{
    unsigned dropped;
    bool used = places_filter(&topo, given, &places.os, &dropped);
    if (dropped && used)
        ilan_warn("%s: %u place%s naming CPUs outside this process's set dropped; %u left", var,
                  dropped, dropped == 1 ? "" : "s", places.os.n);
    return used;
}

bool places_setup(const char *text, unsigned reserve)
{
    bool *reserved = calloc((size_t)topo.ncores + 1, sizeof *reserved);
    if (!reserved)
        ilan_fatal("out of memory building the place list");
    machine_pick_reserved(topo.ncores, topo.core_package, topo.npackages, (int)reserve, reserved);
    bool used = false;
    if (text) {
        int kind;
        unsigned long count;
        struct place_list parsed = {0};
        if (parse_places(text, &kind, &count, &parsed)) {
            if (kind == PLACES_EXPLICIT) {
                used = places_keep_usable(&parsed, "OMP_PLACES");
            } else {
                used = places_from_model(&topo, kind, count, reserved, &places.os);
            }
        }
        place_list_free(&parsed);
    }
    if (!used && !places_from_model(&topo, PLACES_CORES, 0, reserved, &places.os))
        places_from_model(&topo, PLACES_CORES, 0, NULL, &places.os);
    places.is_default = !used;
    free(reserved);
    places_map();
    return used || !text;
}

bool places_setup_cpus(const struct place_list *given)
{
    if (!places_keep_usable(given, "GOMP_CPU_AFFINITY"))
        return false;
    places.is_default = false;
    places_map();
    return true;
}

void places_clear(void)
{
    place_list_free(&places.os);
    places.is_default = true;
    places_map();
}
