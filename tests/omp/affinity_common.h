/* affinity_common.h - helpers shared by the affinity_*.c tests.
 *
 *  - aff_model: the machine a what-if run describes, read by the test itself
 *    from HWLOC_SYNTHETIC ("pack:2 numa:4 core:8 pu:1"), so that expected
 *    values are computed from the description, never taken from the runtime.
 *  - aff_check_team: the OpenMP 5.1 rules (2.6.2, "Controlling OpenMP Thread
 *    Affinity") for the place and the place partition of each thread of a
 *    team under primary, close and spread, checked on what each thread
 *    recorded (omp_get_place_num, omp_get_partition_place_nums).
 *  - ilan-only queries (ilan_get_numa_node_num ...) through dlsym: the
 *    programs are linked against libgomp, which lacks them.
 */
#ifndef ILAN_TEST_AFFINITY_COMMON_H
#define ILAN_TEST_AFFINITY_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <ctype.h>
#include <sched.h>
#include <strings.h>
#include <unistd.h>
#include "check.h"

#define AFF_MAXT 256 /* most threads per team recorded */
#define AFF_MAXP 256 /* most places in a partition recorded */

/* ---- ilan's extension API, looked up at run time ------------------------- */

static inline int aff_ilan_num_numa_nodes(void)
{
    int (*f)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ilan_get_num_numa_nodes");
    return f ? f() : -1;
}

/* -1 when the runtime has no ilan_get_numa_node_num (libgomp). */
static inline int aff_ilan_numa_node_num(void)
{
    static int (*f)(void);
    static int looked;
    if (!looked) {
        f = (int (*)(void))dlsym(RTLD_DEFAULT, "ilan_get_numa_node_num");
        looked = 1;
    }
    return f ? f() : -1;
}

/* ---- the what-if machine ---------------------------------------------------- */

/* A synthetic machine: packages, NUMA nodes, cores and PUs, numbered as hwloc
 * numbers a synthetic topology (PU os index = logical index, depth first). */
struct aff_model {
    int valid;                  /* HWLOC_SYNTHETIC was set and understood */
    int pkgs, nodes, cores, pus; /* totals */
};

static inline int aff_model_read(struct aff_model *m)
{
    memset(m, 0, sizeof *m);
    const char *s = getenv("HWLOC_SYNTHETIC");
    if (s == NULL)
        return 0;
    long prod = 1, pkgs = 0, nodes = 0, cores = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        char type[32];
        int i = 0;
        while (*s && *s != ':' && !isspace((unsigned char)*s) && i < 31)
            type[i++] = (char)tolower((unsigned char)*s++);
        type[i] = 0;
        CHECK(*s == ':', "HWLOC_SYNTHETIC: '%s' without ':count'", type);
        long n = strtol(s + 1, (char **)&s, 10);
        CHECK(n >= 1, "HWLOC_SYNTHETIC: bad count after %s", type);
        if (*s == '(') /* attributes, e.g. numa:2(memory=1GB) */
            while (*s && *s++ != ')') {
            }
        prod *= n;
        if (!strcmp(type, "pack") || !strcmp(type, "package") || !strcmp(type, "socket"))
            pkgs = prod;
        else if (!strcmp(type, "numa") || !strcmp(type, "node") || !strcmp(type, "numanode"))
            nodes = prod;
        else if (!strcmp(type, "core"))
            cores = prod;
    }
    m->pus = (int)prod;
    m->pkgs = pkgs ? (int)pkgs : 1;
    m->nodes = nodes ? (int)nodes : 1;
    m->cores = cores ? (int)cores : m->pus;
    m->valid = 1;
    return 1;
}

static inline int aff_node_of_pu(const struct aff_model *m, int pu)
{
    return pu / (m->pus / m->nodes);
}

/* The CPUs of place `place` of an abstract OMP_PLACES name (threads, cores,
 * numa_domains, sockets) on the model, in increasing order; returns their
 * number, or -1 if the place does not exist. */
static inline int aff_model_place(const struct aff_model *m, const char *kind, int place,
                                  int *ids)
{
    int nplaces, per, count = 0;
    const char *paren = strchr(kind, '(');
    char name[32];
    if (paren) { /* "cores(4)": the first 4 */
        count = atoi(paren + 1);
        snprintf(name, sizeof name, "%.*s", (int)(paren - kind), kind);
        kind = name;
    }
    if (!strcmp(kind, "threads"))
        nplaces = m->pus;
    else if (!strcmp(kind, "cores"))
        nplaces = m->cores;
    else if (!strcmp(kind, "numa_domains"))
        nplaces = m->nodes;
    else if (!strcmp(kind, "sockets"))
        nplaces = m->pkgs;
    else
        return -1;
    per = m->pus / nplaces;
    if (count > 0 && count < nplaces)
        nplaces = count;
    if (place < 0 || place >= nplaces)
        return -1;
    for (int i = 0; i < per; i++)
        ids[i] = place * per + i;
    return per;
}

static inline int aff_model_num_places(const struct aff_model *m, const char *kind)
{
    int ids[1024];
    int n = 0;
    while (aff_model_place(m, kind, n, ids) >= 0)
        n++;
    return n;
}

/* Checks omp_get_num_places and every place's CPUs against the model. */
static inline void aff_check_places_model(const struct aff_model *m, const char *kind)
{
    int want = aff_model_num_places(m, kind);
    CHECK(want > 0, "unknown place kind %s", kind);
    CHECK(omp_get_num_places() == want, "OMP_PLACES=%s on '%s': %d places, want %d", kind,
          getenv("HWLOC_SYNTHETIC"), omp_get_num_places(), want);
    for (int p = 0; p < want; p++) {
        int ids[1024], got[1024];
        int n = aff_model_place(m, kind, p, ids);
        CHECK(omp_get_place_num_procs(p) == n, "place %d has %d procs, want %d", p,
              omp_get_place_num_procs(p), n);
        omp_get_place_proc_ids(p, got);
        for (int i = 0; i < n; i++)
            CHECK(got[i] == ids[i], "place %d: proc %d is %d, want %d", p, i, got[i], ids[i]);
    }
}

static inline const char *aff_set_str(const cpu_set_t *set, char *buf, size_t size);

/* ---- the process's CPUs ----------------------------------------------------- */

/* The CPUs the process may use, read before main (ilan binds no thread before
 * its first parallel region; GNU libgomp binds the initial thread when it is
 * loaded, so on libgomp this is only right with OMP_PROC_BIND=false). */
static cpu_set_t aff_process_set;
static int aff_process_cpus[CPU_SETSIZE], aff_process_ncpus;

__attribute__((constructor)) static void aff_read_process_set(void)
{
    CPU_ZERO(&aff_process_set);
    if (sched_getaffinity(0, sizeof aff_process_set, &aff_process_set) != 0)
        abort();
    aff_process_ncpus = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &aff_process_set))
            aff_process_cpus[aff_process_ncpus++] = c;
}

/* ---- what each thread of a team saw --------------------------------------- */

struct aff_rec {
    int place;          /* omp_get_place_num() */
    int npart;          /* omp_get_partition_num_places() */
    int part[AFF_MAXP]; /* omp_get_partition_place_nums() */
    int node;           /* ilan_get_numa_node_num(), -1 on other runtimes */
    int cpu;            /* sched_getcpu() */
    cpu_set_t mask;     /* sched_getaffinity() of the thread */
};

/* Called by each thread of a team. */
static inline void aff_record(struct aff_rec *r)
{
    r->place = omp_get_place_num();
    r->npart = omp_get_partition_num_places();
    if (r->npart > 0 && r->npart <= AFF_MAXP)
        omp_get_partition_place_nums(r->part);
    r->node = aff_ilan_numa_node_num();
    r->cpu = sched_getcpu();
    CPU_ZERO(&r->mask);
    CHECK(sched_getaffinity(0, sizeof r->mask, &r->mask) == 0, "sched_getaffinity failed");
}

/* The calling thread's own partition, as a list (the parent's view). */
static inline int aff_my_partition(int *part)
{
    int n = omp_get_partition_num_places();
    CHECK(n >= 0 && n <= AFF_MAXP, "partition of %d places", n);
    if (n > 0)
        omp_get_partition_place_nums(part);
    return n;
}

enum aff_policy { AFF_PRIMARY, AFF_CLOSE, AFF_SPREAD };

static inline const char *aff_policy_name(int pol)
{
    return pol == AFF_PRIMARY ? "primary" : pol == AFF_CLOSE ? "close" : "spread";
}

/* Checks a team of T threads created with policy `pol` by a thread that ran
 * on place `parent_place` with partition part[0..len-1] (OpenMP 5.1, 2.6.2):
 *
 *  primary: every thread on the parent's place; partitions unchanged.
 *  close:   T <= P: thread i on the i-th place after the parent's (cyclic in
 *           the partition). T > P: consecutive thread numbers fill the places
 *           in that order, floor(T/P) or ceil(T/P) threads per place, thread
 *           0 on the parent's place. Partitions unchanged.
 *  spread:  T <= P: the partition is cut into T runs of consecutive places
 *           of floor(P/T) or ceil(P/T) places, in thread order starting at the
 *           primary's run, which holds the parent's place; thread i > 0 runs
 *           on the first place of its run, and its partition is its run.
 *           T > P: as close, and each thread's partition is its own place.
 *
 * When P (or T) does not divide evenly the spec leaves the distribution of
 * the extra threads or places to the implementation; then the properties
 * above are checked rather than one layout. */
static inline void aff_check_team(const char *what, int pol, int T, int parent_place,
                                  const int *part, int len, const struct aff_rec *r)
{
    const char *pn = aff_policy_name(pol);
    CHECK(len >= 1, "%s: parent partition is empty", what);
    CHECK(T >= 1 && T <= AFF_MAXT, "%s: team of %d", what, T);
    int k0 = -1;
    for (int k = 0; k < len; k++)
        if (part[k] == parent_place)
            k0 = k;
    CHECK(k0 >= 0, "%s: the parent's place %d is not in its partition", what, parent_place);

    /* offset of each thread's place from the parent's, cyclic in the partition */
    int off[AFF_MAXT];
    for (int i = 0; i < T; i++) {
        int idx = -1;
        for (int k = 0; k < len; k++)
            if (part[k] == r[i].place)
                idx = k;
        CHECK(idx >= 0, "%s (%s, %d threads): thread %d on place %d, outside the parent's "
              "partition", what, pn, T, i, r[i].place);
        off[i] = (idx - k0 + len) % len;
    }
    CHECK(r[0].place == parent_place, "%s (%s, %d threads): the primary thread is on place %d, "
          "its parent was on %d", what, pn, T, r[0].place, parent_place);

    if (pol == AFF_PRIMARY) {
        for (int i = 0; i < T; i++)
            CHECK(off[i] == 0, "%s (primary, %d threads): thread %d on place %d, want %d", what,
                  T, i, r[i].place, parent_place);
    } else if (T <= len && pol == AFF_CLOSE) {
        for (int i = 0; i < T; i++)
            CHECK(off[i] == i, "%s (close, %d threads, %d places): thread %d on place %d, want "
                  "%d", what, T, len, i, r[i].place, part[(k0 + i) % len]);
    } else if (T > len && T % len != 0 && !ilan_test_on_ilan()) {
        /* GNU libgomp places floor(T/P) consecutive threads on each place and
           then the T mod P others one per place from the first, so a place's
           threads are not consecutive as the spec says: on another runtime
           only the number of threads per place is checked in this case. */
        int count[AFF_MAXP] = {0};
        for (int i = 0; i < T; i++)
            count[off[i]]++;
        for (int k = 0; k < len; k++)
            CHECK(count[k] >= T / len && count[k] <= (T + len - 1) / len, "%s (%s, %d threads, "
                  "%d places): %d threads on place %d", what, pn, T, len, count[k],
                  part[(k0 + k) % len]);
    } else if (T > len) {
        /* close or spread with more threads than places: runs of consecutive
           thread numbers, floor(T/P) or ceil(T/P) long, fill the places in
           order from the parent's */
        int lo = T / len, hi = (T + len - 1) / len, count = 1;
        for (int i = 1; i < T; i++) {
            CHECK(off[i] == off[i - 1] || off[i] == off[i - 1] + 1,
                  "%s (%s, %d threads, %d places): thread %d on place %d after thread %d on "
                  "%d: threads must fill places in order", what, pn, T, len, i, r[i].place,
                  i - 1, r[i - 1].place);
            if (off[i] == off[i - 1]) {
                count++;
            } else {
                CHECK(count >= lo && count <= hi, "%s (%s, %d threads, %d places): %d threads "
                      "on place %d, want %d..%d", what, pn, T, len, count, r[i - 1].place, lo,
                      hi);
                count = 1;
            }
        }
        CHECK(count >= lo && count <= hi, "%s (%s, %d threads, %d places): %d threads on the "
              "last place %d, want %d..%d", what, pn, T, len, count, r[T - 1].place, lo, hi);
        CHECK(off[T - 1] == len - 1, "%s (%s, %d threads, %d places): places %d.. unused",
              what, pn, T, len, part[(k0 + off[T - 1] + 1) % len]);
    }

    /* partitions */
    for (int i = 0; i < T; i++) {
        if (pol != AFF_SPREAD) {
            CHECK(r[i].npart == len, "%s (%s): thread %d has a partition of %d places, want "
                  "the parent's %d", what, pn, i, r[i].npart, len);
            for (int k = 0; k < len; k++)
                CHECK(r[i].part[k] == part[k], "%s (%s): thread %d partition[%d] = %d, want %d",
                      what, pn, i, k, r[i].part[k], part[k]);
        } else if (T > len) {
            CHECK(r[i].npart == 1 && r[i].part[0] == r[i].place, "%s (spread, %d threads, %d "
                  "places): thread %d's partition has %d places (first %d), want its place %d",
                  what, T, len, i, r[i].npart, r[i].npart > 0 ? r[i].part[0] : -1, r[i].place);
        }
    }
    if (pol == AFF_SPREAD && T <= len) {
        int lo = len / T, hi = (len + T - 1) / T;
        /* the runs, in thread order, tile the partition starting at the
           primary's run, which contains the parent's place */
        int start = -1; /* offset (from k0) of the primary's run */
        for (int k = 0; k < len; k++)
            if (part[k] == r[0].part[0])
                start = (k - k0 + len) % len;
        CHECK(start >= 0, "%s (spread, %d threads): primary partition starts at %d, outside "
              "the parent's", what, T, r[0].npart > 0 ? r[0].part[0] : -1);
        /* the run containing the parent's place starts at or before it */
        int s = start == 0 ? 0 : start - len; /* as a non-positive offset */
        CHECK(s + r[0].npart > 0, "%s (spread, %d threads): the primary's partition does not "
              "hold its place", what, T);
        int pos = s;
        for (int i = 0; i < T; i++) {
            CHECK(r[i].npart >= lo && r[i].npart <= hi, "%s (spread, %d threads, %d places): "
                  "thread %d has a partition of %d places, want %d..%d", what, T, len, i,
                  r[i].npart, lo, hi);
            for (int k = 0; k < r[i].npart; k++) {
                int want = part[(k0 + pos + k + 2 * len) % len];
                CHECK(r[i].part[k] == want, "%s (spread, %d threads, %d places): thread %d "
                      "partition[%d] = %d, want %d", what, T, len, i, k, r[i].part[k], want);
            }
            if (i > 0)
                CHECK(r[i].place == r[i].part[0], "%s (spread, %d threads, %d places): thread "
                      "%d on place %d, want the first place of its partition, %d", what, T, len,
                      i, r[i].place, r[i].part[0]);
            pos += r[i].npart;
        }
        CHECK(pos - s == len, "%s (spread, %d threads): the partitions cover %d of %d places",
              what, T, pos - s, len);
    }
}

/* On a what-if machine, checks each thread's NUMA node (ilan only): the node
 * of the first CPU of its place (ilan's documented answer; for a place in
 * one node, its node). */
static inline void aff_check_nodes(const char *what, const struct aff_model *m, int T,
                                   const struct aff_rec *r)
{
    if (!m->valid || !ilan_test_on_ilan())
        return;
    for (int i = 0; i < T; i++) {
        int n = omp_get_place_num_procs(r[i].place);
        int ids[1024];
        CHECK(n >= 1 && n <= 1024, "%s: place %d has %d procs", what, r[i].place, n);
        omp_get_place_proc_ids(r[i].place, ids);
        int want = aff_node_of_pu(m, ids[0]);
        CHECK(r[i].node == want, "%s: thread %d on place %d (CPUs %d..%d) reports NUMA node "
              "%d, want %d", what, i, r[i].place, ids[0], ids[n - 1], r[i].node, want);
    }
}

/* On a what-if machine (ilan only): model PU u runs on the process's real CPU
 * number u mod n (n real CPUs, in increasing order), so a thread on a place
 * is bound to the real CPUs of that place's PUs. */
static inline void aff_check_whatif_binding(const char *what, const struct aff_model *m, int T,
                                            const struct aff_rec *r)
{
    if (!m->valid || !ilan_test_on_ilan())
        return;
    for (int i = 0; i < T; i++) {
        int n = omp_get_place_num_procs(r[i].place);
        int ids[1024];
        cpu_set_t want;
        char a[256], b[256];
        CHECK(n >= 1 && n <= 1024, "%s: place %d has %d procs", what, r[i].place, n);
        omp_get_place_proc_ids(r[i].place, ids);
        CPU_ZERO(&want);
        for (int k = 0; k < n; k++)
            CPU_SET(aff_process_cpus[ids[k] % aff_process_ncpus], &want);
        CHECK(CPU_EQUAL(&want, &r[i].mask), "%s: thread %d on model place %d (PU %d..) is "
              "bound to real CPUs {%s}, want {%s} (PU u on real CPU u mod %d)", what, i,
              r[i].place, ids[0], aff_set_str(&r[i].mask, a, sizeof a),
              aff_set_str(&want, b, sizeof b), aff_process_ncpus);
    }
}

/* The CPU set of place p, from omp_get_place_proc_ids. */
static inline void aff_place_set(int p, cpu_set_t *set)
{
    int n = omp_get_place_num_procs(p);
    int ids[CPU_SETSIZE];
    CHECK(n >= 1 && n <= CPU_SETSIZE, "place %d has %d procs", p, n);
    omp_get_place_proc_ids(p, ids);
    CPU_ZERO(set);
    for (int i = 0; i < n; i++)
        CPU_SET(ids[i], set);
}

/* "0-3,8" style text of a CPU set, for messages. */
static inline const char *aff_set_str(const cpu_set_t *set, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int c = 0; c < CPU_SETSIZE && len + 16 < size; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        len += (size_t)snprintf(buf + len, size - len, len ? ",%d" : "%d", c);
        if (e > c)
            len += (size_t)snprintf(buf + len, size - len, "-%d", e);
        c = e;
    }
    return buf;
}

#endif

/* ---- the what-if driver ------------------------------------------------------ */

/* The policy OMP_PROC_BIND names for nesting level `level` (0 = outermost),
 * or -1 (false, true, unset: no spec rule to check). */
static inline int aff_env_policy(int level)
{
    const char *s = getenv("OMP_PROC_BIND");
    if (s == NULL)
        return -1;
    for (int l = 0;; l++) {
        while (*s == ' ' || *s == ',')
            s++;
        const char *e = s;
        while (*e && *e != ',')
            e++;
        int pol = -1;
        if (!strncasecmp(s, "close", 5))
            pol = AFF_CLOSE;
        else if (!strncasecmp(s, "spread", 6))
            pol = AFF_SPREAD;
        else if (!strncasecmp(s, "primary", 7) || !strncasecmp(s, "master", 6))
            pol = AFF_PRIMARY;
        if (l == level || !*e)
            return pol; /* the last item applies to deeper levels too */
        s = e;
    }
}

static struct aff_rec aff_recs[AFF_MAXT];
static struct aff_rec aff_outer[AFF_MAXT];
static struct aff_rec aff_inner[AFF_MAXT][AFF_MAXT / 16];

static inline void aff_body(int *n)
{
    int me = omp_get_thread_num();
    if (me < AFF_MAXT)
        aff_record(&aff_recs[me]);
    if (me == 0)
        *n = omp_get_num_threads();
}

/* One region of T threads with policy pol (-1: no proc_bind clause, T <= 0:
 * no num_threads clause); returns the team size. */
static inline int aff_region(int pol, int T)
{
    int n = 0;
    if (T <= 0) {
        if (pol == AFF_PRIMARY) {
#pragma omp parallel proc_bind(primary)
            aff_body(&n);
        } else if (pol == AFF_CLOSE) {
#pragma omp parallel proc_bind(close)
            aff_body(&n);
        } else if (pol == AFF_SPREAD) {
#pragma omp parallel proc_bind(spread)
            aff_body(&n);
        } else {
#pragma omp parallel
            aff_body(&n);
        }
    } else {
        if (pol == AFF_PRIMARY) {
#pragma omp parallel num_threads(T) proc_bind(primary)
            aff_body(&n);
        } else if (pol == AFF_CLOSE) {
#pragma omp parallel num_threads(T) proc_bind(close)
            aff_body(&n);
        } else if (pol == AFF_SPREAD) {
#pragma omp parallel num_threads(T) proc_bind(spread)
            aff_body(&n);
        } else {
#pragma omp parallel num_threads(T)
            aff_body(&n);
        }
    }
    CHECK(T <= 0 || n == T, "asked for %d threads, got %d", T, n);
    CHECK(n <= AFF_MAXT, "team of %d", n);
    return n;
}

static inline void aff_inner_body(int o, int T2)
{
    aff_record(&aff_inner[o][omp_get_thread_num()]);
    CHECK(omp_get_num_threads() == T2, "inner team of %d, want %d", omp_get_num_threads(), T2);
}

static inline void aff_outer_body(int T1, int p2, int T2)
{
    int o = omp_get_thread_num();
    CHECK(omp_get_num_threads() == T1, "outer team of %d, want %d", omp_get_num_threads(), T1);
    aff_record(&aff_outer[o]);
    if (p2 == AFF_PRIMARY) {
#pragma omp parallel num_threads(T2) proc_bind(primary)
        aff_inner_body(o, T2);
    } else if (p2 == AFF_CLOSE) {
#pragma omp parallel num_threads(T2) proc_bind(close)
        aff_inner_body(o, T2);
    } else {
#pragma omp parallel num_threads(T2) proc_bind(spread)
        aff_inner_body(o, T2);
    }
}

/* Nested: an outer team of T1 threads with policy p1, each running an inner
 * team of T2 threads with policy p2; every thread records itself. */
static inline void aff_nested(int p1, int T1, int p2, int T2)
{
    CHECK(T1 <= AFF_MAXT && T2 <= AFF_MAXT / 16, "nested %d x %d", T1, T2);
    if (p1 == AFF_PRIMARY) {
#pragma omp parallel num_threads(T1) proc_bind(primary)
        aff_outer_body(T1, p2, T2);
    } else if (p1 == AFF_CLOSE) {
#pragma omp parallel num_threads(T1) proc_bind(close)
        aff_outer_body(T1, p2, T2);
    } else {
#pragma omp parallel num_threads(T1) proc_bind(spread)
        aff_outer_body(T1, p2, T2);
    }
}

/* Checks a nested run of aff_nested against the rules, level by level. */
static inline void aff_check_nested(const struct aff_model *m, int p1, int T1, int p2, int T2,
                                    int place0, const int *part0, int len0)
{
    char what[96];
    snprintf(what, sizeof what, "nested %s(%d),%s(%d) outer", aff_policy_name(p1), T1,
             aff_policy_name(p2), T2);
    aff_check_team(what, p1, T1, place0, part0, len0, aff_outer);
    aff_check_nodes(what, m, T1, aff_outer);
    aff_check_whatif_binding(what, m, T1, aff_outer);
    for (int o = 0; o < T1; o++) {
        snprintf(what, sizeof what, "nested %s(%d),%s(%d) inner team of outer thread %d",
                 aff_policy_name(p1), T1, aff_policy_name(p2), T2, o);
        aff_check_team(what, p2, T2, aff_outer[o].place, aff_outer[o].part, aff_outer[o].npart,
                       aff_inner[o]);
        aff_check_nodes(what, m, T2, aff_inner[o]);
        aff_check_whatif_binding(what, m, T2, aff_inner[o]);
    }
}

/* The initial thread's view: bound to the first place (the spec says: before
 * the first active parallel region, so it is checked after one), its
 * partition all places. Returns the number of places P and fills part0 with
 * 0..P-1. */
static inline int aff_check_initial(int *part0)
{
    static struct aff_rec scratch[2];
#pragma omp parallel num_threads(2)
    aff_record(&scratch[omp_get_thread_num()]);
    int P = omp_get_num_places();
    CHECK(P >= 1 && P <= AFF_MAXP, "%d places", P);
    int len = aff_my_partition(part0);
    CHECK(len == P, "the initial thread's partition has %d places, want all %d", len, P);
    for (int k = 0; k < P; k++)
        CHECK(part0[k] == k, "initial partition[%d] = %d", k, part0[k]);
    CHECK(omp_get_place_num() == 0, "the initial thread is on place %d, want the first (0)",
          omp_get_place_num());
    return P;
}

/* The flat runs: every policy, with team sizes around the number of places,
 * plus the default team (OMP_NUM_THREADS) under OMP_PROC_BIND's policy. */
static inline void aff_check_flat(const struct aff_model *m, int P, const int *part0)
{
    int sizes[] = {1, 2, 3, 4, 5, 8, 16, P - 1, P, P + 1, 2 * P, 64};
    char what[64];
    for (int pol = AFF_PRIMARY; pol <= AFF_SPREAD; pol++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int T = sizes[s];
            if (T < 1 || T > 130)
                continue;
            aff_region(pol, T);
            snprintf(what, sizeof what, "proc_bind(%s) num_threads(%d)", aff_policy_name(pol), T);
            aff_check_team(what, pol, T, 0, part0, P, aff_recs);
            aff_check_nodes(what, m, T, aff_recs);
            aff_check_whatif_binding(what, m, T, aff_recs);
        }
    }
    int pol = aff_env_policy(0);
    int T = aff_region(-1, 0);
    if (pol >= 0) {
        snprintf(what, sizeof what, "default team of %d (OMP_PROC_BIND)", T);
        aff_check_team(what, pol, T, 0, part0, P, aff_recs);
    }
    aff_check_nodes("default team", m, T, aff_recs);
    aff_check_whatif_binding("default team", m, T, aff_recs);
}

/* The whole what-if check for an abstract OMP_PLACES kind. On ilan the place
 * list must be the model's; on another runtime (which does not read
 * HWLOC_SYNTHETIC) only the spec's rules are checked, on the real places. */
static inline void aff_whatif_main(const char *kind)
{
    struct aff_model m;
    aff_model_read(&m);
    if (ilan_test_on_ilan()) {
        CHECK(m.valid, "HWLOC_SYNTHETIC is not set");
        if (kind)
            aff_check_places_model(&m, kind);
        CHECK(aff_ilan_num_numa_nodes() == m.nodes, "ilan_get_num_numa_nodes() = %d, want %d",
              aff_ilan_num_numa_nodes(), m.nodes);
    } else {
        m.valid = 0;
    }
    int part0[AFF_MAXP];
    int P = aff_check_initial(part0);
    if (m.valid)
        CHECK(aff_ilan_numa_node_num() == 0, "the initial thread reports node %d, want 0",
              aff_ilan_numa_node_num());
    aff_check_flat(&m, P, part0);

    omp_set_max_active_levels(2);
    static const int outer[] = {2, 4, 8}, inner[] = {2, 3, 8};
    for (int p1 = AFF_PRIMARY; p1 <= AFF_SPREAD; p1++)
        for (int p2 = AFF_PRIMARY; p2 <= AFF_SPREAD; p2++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    aff_nested(p1, outer[a], p2, inner[b]);
                    aff_check_nested(&m, p1, outer[a], p2, inner[b], 0, part0, P);
                }
}

/* ---- real binding ------------------------------------------------------------ */

/* Each thread of a team is bound to exactly its place's CPUs (the sets
 * omp_get_place_proc_ids names) and runs on one of them. */
static inline void aff_check_bound_to_places(const char *what, int T, const struct aff_rec *r)
{
    char a[256], b[256];
    for (int i = 0; i < T; i++) {
        CHECK(r[i].place >= 0 && r[i].place < omp_get_num_places(), "%s: thread %d has place "
              "%d of %d", what, i, r[i].place, omp_get_num_places());
        cpu_set_t want;
        aff_place_set(r[i].place, &want);
        CHECK(CPU_EQUAL(&want, &r[i].mask), "%s: thread %d on place %d {%s} has the affinity "
              "{%s}", what, i, r[i].place, aff_set_str(&want, a, sizeof a),
              aff_set_str(&r[i].mask, b, sizeof b));
        CHECK(r[i].cpu >= 0 && CPU_ISSET(r[i].cpu, &r[i].mask), "%s: thread %d runs on CPU %d, "
              "outside its affinity {%s}", what, i, r[i].cpu, aff_set_str(&r[i].mask, a, sizeof a));
    }
}

/* Two regions of the same size: every thread number finds the same place and
 * the same affinity (and, bound to one CPU, the same CPU). */
/* No thread of the team is bound: each may run on the process's whole
 * set, as it was at start-up, and has no place. */
static inline void aff_check_unbound(const char *what, int T, const struct aff_rec *r)
{
    char a[256], b[256];
    for (int i = 0; i < T; i++) {
        CHECK(CPU_EQUAL(&r[i].mask, &aff_process_set), "%s: thread %d has the affinity "
              "{%s}, want the process's {%s}", what, i, aff_set_str(&r[i].mask, a, sizeof a),
              aff_set_str(&aff_process_set, b, sizeof b));
        CHECK(r[i].place == -1, "%s: thread %d has place %d, want -1", what, i, r[i].place);
    }
}

static inline void aff_check_same(const char *what, int T, const struct aff_rec *a,
                                  const struct aff_rec *b)
{
    char x[256], y[256];
    for (int i = 0; i < T; i++) {
        CHECK(a[i].place == b[i].place, "%s: thread %d on place %d, then on %d", what, i,
              a[i].place, b[i].place);
        CHECK(CPU_EQUAL(&a[i].mask, &b[i].mask), "%s: thread %d bound to {%s}, then to {%s}",
              what, i, aff_set_str(&a[i].mask, x, sizeof x), aff_set_str(&b[i].mask, y, sizeof y));
        if (CPU_COUNT(&a[i].mask) == 1)
            CHECK(a[i].cpu == b[i].cpu, "%s: thread %d ran on CPU %d, then on %d", what, i,
                  a[i].cpu, b[i].cpu);
    }
}

/* The real-binding test for OMP_PLACES set and OMP_PROC_BIND = close or
 * spread: team sizes around the number of places, the spec's rules, each
 * thread bound to its place, and the same layout in a second region of the
 * same size. */
static struct aff_rec aff_prev[AFF_MAXT];

static inline void aff_bind_main(int pol)
{
    int part0[AFF_MAXP];
    int P = aff_check_initial(part0);
    int env_T = omp_get_max_threads();
    int sizes[] = {1, 2, 3, 4, P, P + 1, 2 * P, 3 * P + 1, env_T};
    char what[64];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int T = sizes[s];
        if (T < 1 || T > 130)
            continue;
        for (int round = 0; round < 2; round++) {
            if (s + 1 == sizeof sizes / sizeof sizes[0])
                T = aff_region(-1, 0); /* the default team: OMP_NUM_THREADS, OMP_PROC_BIND */
            else
                aff_region(pol, T);
            snprintf(what, sizeof what, "%s team of %d (round %d)", aff_policy_name(pol), T,
                     round + 1);
            aff_check_team(what, pol, T, 0, part0, P, aff_recs);
            aff_check_bound_to_places(what, T, aff_recs);
            if (round == 1)
                aff_check_same(what, T, aff_prev, aff_recs);
            memcpy(aff_prev, aff_recs, sizeof aff_prev);
        }
    }
}
