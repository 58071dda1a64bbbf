/* world.c — the simulated machine at run time: the fluid model of pieces of work sharing node bandwidth, compute profiles, data placement, cache reuse, and the phase loop. */
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sched/steal.h"

#define MAX_SPANS 20000u
#define LINE_BYTES 64.0

bool world_init(struct world *w, const struct sim_input *in)
{
    memset(w, 0, sizeof *w);
    w->in = in;
    w->p = &in->params;
    w->nthreads = in->nthreads;
    w->nnodes = in->nnodes;
    struct topo_model *m = &w->model;
    if (!machine_alloc(m, (int)in->ncores, (int)in->ncores, (int)in->nnodes))
        return false;
    int nllcs = 0, npackages = 0;
    for (unsigned c = 0; c < in->ncores; c++) {
        m->pu_os[c] = (int)c;
        m->pu_core[c] = (int)c;
        m->pu_real[c] = 0;
        m->core_first_pu[c] = (int)c;
        m->core_node[c] = in->core_node[c];
        m->core_llc[c] = in->core_llc[c];
        m->core_package[c] = in->core_package[c];
        if (in->core_llc[c] + 1 > nllcs)
            nllcs = in->core_llc[c] + 1;
        if (in->core_package[c] + 1 > npackages)
            npackages = in->core_package[c] + 1;
    }
    m->core_first_pu[in->ncores] = (int)in->ncores;
    m->nllcs = nllcs;
    m->npackages = npackages;
    for (unsigned n = 0; n < in->nnodes; n++)
        m->node_os[n] = (int)n;
    memcpy(m->dist, in->dist, (size_t)in->nnodes * in->nnodes * sizeof *m->dist);
    m->nreal = 1;
    m->whatif = true;
    m->source = "ilan sim";
    /* An unbound team's threads have no place: groups_build then makes
     * each thread a group of its own, as the runtime does (src/ilan/groups.c). */
    int *slot_core = in->thread_core, *unplaced = NULL;
    if (in->unbound) {
        unplaced = malloc(in->nthreads * sizeof *unplaced);
        if (!unplaced)
            return false;
        for (unsigned t = 0; t < in->nthreads; t++)
            unplaced[t] = -1;
        slot_core = unplaced;
    }
    bool built = groups_build(m, in->nthreads, slot_core, &w->groups);
    free(unplaced);
    if (!built) {
        fprintf(stderr, "ilan-sim-engine: out of memory building the team's groups\n");
        return false;
    }
    unsigned nc = in->nconstructs ? in->nconstructs : 1;
    w->threads = calloc(w->nthreads, sizeof *w->threads);
    w->group_node = calloc(w->groups.ngroups, sizeof *w->group_node);
    w->readers = calloc(w->nnodes, sizeof *w->readers);
    w->sharers = calloc((size_t)nc * w->nnodes, sizeof *w->sharers);
    w->reuse = calloc(nc, sizeof *w->reuse);
    w->splits = calloc(nc, sizeof *w->splits);
    w->llc_used = calloc((size_t)nllcs, sizeof *w->llc_used);
    w->heap = calloc(w->nthreads, sizeof *w->heap);
    w->heap_pos = calloc(w->nthreads, sizeof *w->heap_pos);
    w->heap_key = calloc(w->nthreads, sizeof *w->heap_key);
    if (!w->threads || !w->group_node || !w->readers || !w->sharers || !w->reuse ||
        !w->splits || !w->llc_used || !w->heap || !w->heap_pos || !w->heap_key)
        return false;
    for (unsigned t = in->nthreads; t-- > 0;) /* ends at each group's first thread */
        w->group_node[w->groups.slot_group[t]] = (unsigned)in->core_node[in->thread_core[t]];
    for (unsigned t = 0; t < w->nthreads; t++) {
        struct sim_thread *th = &w->threads[t];
        th->core = (unsigned)in->thread_core[t];
        th->node = (unsigned)in->core_node[th->core];
        th->llc = (unsigned)in->core_llc[th->core];
        th->mem_bytes = calloc(w->nnodes, sizeof *th->mem_bytes);
        if (!th->mem_bytes)
            return false;
        th->rng = steal_seed(t) ^ (in->seed * 0x9e3779b97f4a7c15ull);
        if (!th->rng)
            th->rng = 1;
        th->last_victim = STEAL_NO_VICTIM;
        th->state = TH_ASLEEP;
    }
    return true;
}

void world_free(struct world *w)
{
    for (unsigned t = 0; w->threads && t < w->nthreads; t++)
        free(w->threads[t].mem_bytes);
    for (unsigned c = 0; w->reuse && c < w->in->nconstructs; c++)
        free(w->reuse[c].llc);
    for (unsigned c = 0; w->splits && c < w->in->nconstructs; c++)
        for (unsigned k = 0; k < SPLIT_SIZES; k++)
            free(w->splits[c].split[k]);
    free(w->splits);
    free(w->threads);
    free(w->group_node);
    free(w->readers);
    free(w->sharers);
    free(w->reuse);
    free(w->llc_used);
    free(w->heap);
    free(w->heap_pos);
    free(w->heap_key);
    free(w->spans);
    groups_free(&w->groups);
    machine_free(&w->model);
}

void world_group_distances(const struct world *w, int *out)
{
    unsigned G = w->groups.ngroups;
    for (unsigned a = 0; a < G; a++)
        for (unsigned b = 0; b < G; b++)
            out[a * G + b] = w->in->dist[w->group_node[a] * w->nnodes + w->group_node[b]];
}

double world_far(const struct world *w, unsigned a, unsigned b)
{
    return w->in->dist[a * w->nnodes + b] / 10.0;
}

/* SplitMix64's output function: a well-mixed 64-bit value of x. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Core c's speed in interval k of the run (sim/README.md, "Uneven
 * cores"): exp(spread z - spread^2 / 2) for a standard normal z drawn
 * from (seed, c, k), so that its mean is 1. A pure function of its
 * arguments: the same run gives the same speeds whatever the order of
 * the questions. */
static double core_speed(const struct world *w, unsigned c, uint64_t k)
{
    uint64_t h = mix64(w->in->seed ^ mix64(((uint64_t)c << 40) ^ k));
    double u1 = ((double)(h >> 11) + 0.5) * 0x1p-53;
    double u2 = (double)(mix64(h) >> 11) * 0x1p-53;
    double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
    double s = w->p->speed_spread;
    return exp(s * z - s * s / 2);
}

/* Whether cores run at uneven speeds (both optional parameters set). */
static bool uneven(const struct world *w)
{
    return w->p->speed_spread > 0 && w->p->speed_interval_us > 0;
}

/* Nominal time core c delivers between a and b (ns): b - a at even
 * speeds, else the integral of its speed. */
static double delivered(const struct world *w, unsigned c, double a, double b)
{
    if (!uneven(w) || b <= a)
        return b - a;
    double len = w->p->speed_interval_us * 1e3, done = 0;
    uint64_t k = (uint64_t)(a / len);
    for (double at = a; at < b; k++) {
        double end = (double)(k + 1) * len;
        if (end > b)
            end = b;
        done += (end - at) * core_speed(w, c, k);
        at = end;
    }
    return done;
}

/* When core c, from time a, has delivered `work` ns of nominal time:
 * a + work at even speeds. */
static double delivered_by(const struct world *w, unsigned c, double a, double work)
{
    if (!uneven(w))
        return a + work;
    double len = w->p->speed_interval_us * 1e3;
    uint64_t k = (uint64_t)(a / len);
    for (double at = a;; k++) {
        double end = (double)(k + 1) * len, v = core_speed(w, c, k);
        if ((end - at) * v >= work)
            return at + work / v;
        work -= (end - at) * v;
        at = end;
    }
}

/* The cumulative compute profile: the share of a construct's compute in
 * its first fraction x of iterations (0 at 0, 1 at 1). */
static double profile_share(const struct sim_op *op, double x)
{
    switch (op->profile) {
    case PROFILE_LINEAR: /* density 2x */
        return x * x;
    case PROFILE_PEAK: {
        double w = op->peak_width, h = op->peak_height, a = 0.5 - w / 2;
        double in = x < a ? 0 : x > a + w ? w : x - a;
        return (x + (h - 1) * in) / (1 + w * (h - 1));
    }
    case PROFILE_UNIFORM:
        break;
    }
    return x;
}

double world_compute_ns(const struct world *w, const struct sim_op *op, unsigned long n,
                        unsigned long lo, unsigned long hi)
{
    double share = profile_share(op, (double)hi / (double)n) - profile_share(op, (double)lo / (double)n);
    return op->ns * w->p->compute_scale * (double)n * share;
}

/* First iteration of thread j's block in a static split of n over T. */
static unsigned long block_start(unsigned long n, unsigned T, unsigned j)
{
    return (unsigned long)((unsigned __int128)n * j / T);
}

/* Adds `bytes` per iteration of [lo, hi) to out[node] by where op's data
 * lives. */
static void data_bytes(const struct world *w, const struct sim_op *op, unsigned long n,
                       unsigned long lo, unsigned long hi, double bytes, double *out)
{
    unsigned T = w->nthreads;
    switch (op->data) {
    case DATA_INTERLEAVE:
        for (unsigned k = 0; k < w->nnodes; k++)
            out[k] += bytes * (double)(hi - lo) / w->nnodes;
        return;
    case DATA_NODE:
        out[op->data_node] += bytes * (double)(hi - lo);
        return;
    case DATA_SINGLE:
        out[w->threads[0].node] += bytes * (double)(hi - lo);
        return;
    case DATA_STATIC:
    case DATA_TWISTED:
        break;
    }
    unsigned j = (unsigned)((unsigned __int128)lo * T / n);
    while (j > 0 && block_start(n, T, j) > lo)
        j--;
    while (j + 1 < T && block_start(n, T, j + 1) <= lo)
        j++;
    for (unsigned long at = lo; at < hi && j < T; j++) {
        unsigned long end = block_start(n, T, j + 1);
        if (end > hi)
            end = hi;
        if (end <= at)
            continue;
        unsigned owner = op->data == DATA_STATIC ? j : T - 1 - j;
        out[w->threads[owner].node] += bytes * (double)(end - at);
        at = end;
    }
}

/* Of iterations [lo, hi), how many the cache `llc` holds from the
 * construct's previous execution (reuse=1 and its data fit the caches it
 * used); marks them as that cache's for the next execution. */
static double reuse_hits(struct world *w, const struct sim_op *op, unsigned long n,
                         unsigned long lo, unsigned long hi, unsigned llc)
{
    struct reuse_map *r = &w->reuse[op->construct];
    if (!r->llc) {
        r->llc = malloc(REUSE_BLOCKS * sizeof *r->llc);
        if (!r->llc)
            return 0;
    }
    if (r->n != n) { /* a new size: nothing of it is cached */
        for (unsigned b = 0; b < REUSE_BLOCKS; b++)
            r->llc[b] = -1;
        r->n = n;
        r->used = 0;
    }
    double footprint = (double)n * op->bytes / (r->used ? r->used : 1);
    bool fits = r->used && footprint <= w->p->llc_mb * 1048576.0;
    double hits = 0;
    unsigned b0 = (unsigned)((unsigned __int128)lo * REUSE_BLOCKS / n);
    for (unsigned b = b0; b < REUSE_BLOCKS; b++) {
        unsigned long bs = (unsigned long)((unsigned __int128)n * b / REUSE_BLOCKS);
        unsigned long be = (unsigned long)((unsigned __int128)n * (b + 1) / REUSE_BLOCKS);
        if (bs >= hi)
            break;
        unsigned long a = bs > lo ? bs : lo, e = be < hi ? be : hi;
        if (e <= a)
            continue;
        if (fits && r->llc[b] == (int)llc)
            hits += (double)(e - a);
        unsigned long mid = bs + (be - bs) / 2; /* the block is the cache's that ran its middle */
        if (a <= mid && mid < e)
            r->llc[b] = (int)llc;
    }
    w->llc_used[llc] = true;
    return hits;
}

void world_reuse_done(struct world *w, unsigned construct)
{
    unsigned used = 0;
    for (int l = 0; l < w->model.nllcs; l++) {
        used += w->llc_used[l];
        w->llc_used[l] = false;
    }
    w->reuse[construct].used = used;
}

/* What a piece's atomics on its construct's shared line cost per
 * iteration now: with k running pieces of the construct the line serves
 * one atomic at a time, so each waits for about k transfers, as far as
 * the farthest sharer (alone, the line stays in its cache: nothing). */
static double atomic_cost(const struct world *w, const struct sim_thread *th)
{
    const struct sim_op *op = th->piece.op;
    const unsigned *on = w->sharers + (size_t)op->construct * w->nnodes;
    unsigned k = 0;
    double far = 1;
    for (unsigned n = 0; n < w->nnodes; n++) {
        k += on[n];
        if (on[n] && world_far(w, th->node, n) > far)
            far = world_far(w, th->node, n);
    }
    return k > 1 ? op->atomic_ns * k * far : 0;
}

/* Thread t's whole-piece time at the current shares of bandwidth. */
static double piece_time(const struct world *w, const struct sim_thread *th)
{
    const struct sim_params *p = w->p;
    double t = th->compute_ns + th->cache_bytes / p->llc_bandwidth_gbs;
    if (th->piece.op->atomic_ns > 0)
        t += (double)(th->piece.hi - th->piece.lo) * atomic_cost(w, th);
    for (unsigned n = 0; n < w->nnodes; n++) {
        if (th->mem_bytes[n] <= 0)
            continue;
        double core_rate = p->lines_in_flight * LINE_BYTES /
                           (p->local_latency_ns * world_far(w, th->node, n));
        double share = p->node_bandwidth_gbs / (w->readers[n] > 1 ? w->readers[n] : 1);
        t += th->mem_bytes[n] / (share < core_rate ? share : core_rate);
    }
    return t;
}

static void heap_update(struct world *w, unsigned t);

/* Brings every running piece's progress up to `now` at the old rates and
 * recomputes its duration at the new ones (after a change of readers). */
static void rates_changed(struct world *w, double now)
{
    for (unsigned t = 0; t < w->nthreads; t++) {
        struct sim_thread *th = &w->threads[t];
        if (th->state != TH_RUNNING)
            continue;
        if (th->duration > 0)
            th->progress += delivered(w, th->core, th->since, now) / th->duration;
        if (th->progress > 1)
            th->progress = 1;
        th->since = now;
        th->duration = piece_time(w, th);
        heap_update(w, t);
    }
}

/* The reader weight thread t's piece puts on each node (sign: +1 at its
 * start, -1 at its end). */
static void add_readers(struct world *w, const struct sim_thread *th, double sign)
{
    double total = 0;
    for (unsigned n = 0; n < w->nnodes; n++)
        total += th->mem_bytes[n];
    if (total <= 0)
        return;
    for (unsigned n = 0; n < w->nnodes; n++) {
        w->readers[n] += sign * th->mem_bytes[n] / total;
        if (w->readers[n] < 1e-12)
            w->readers[n] = 0;
    }
}

/* Whether thread t's piece shares a resource whose share depends on the
 * running pieces: node bandwidth (bytes from memory) or a construct's
 * contended line (atomics). */
static bool shares_anything(const struct world *w, const struct sim_thread *th)
{
    if (th->piece.op->atomic_ns > 0)
        return true;
    for (unsigned n = 0; n < w->nnodes; n++)
        if (th->mem_bytes[n] > 0)
            return true;
    return false;
}

static void piece_begin(struct world *w, unsigned t, double now)
{
    struct sim_thread *th = &w->threads[t];
    const struct piece *pc = &th->piece;
    const struct sim_op *op = pc->op;
    th->compute_ns = pc->compute_ns >= 0 ? pc->compute_ns * w->p->compute_scale
                                         : world_compute_ns(w, op, pc->n, pc->lo, pc->hi);
    double iters = (double)(pc->hi - pc->lo);
    double per_iter = pc->bytes >= 0 ? (iters > 0 ? pc->bytes / iters : 0) : op->bytes;
    double hits = op->reuse && per_iter > 0 ? reuse_hits(w, op, pc->n, pc->lo, pc->hi, th->llc) : 0;
    th->cache_bytes = hits * per_iter;
    for (unsigned n = 0; n < w->nnodes; n++)
        th->mem_bytes[n] = 0;
    if (per_iter > 0)
        data_bytes(w, op, pc->n, pc->lo, pc->hi, per_iter * (1 - hits / iters), th->mem_bytes);
    th->state = TH_RUNNING;
    th->started = now;
    th->progress = 0;
    th->since = now;
    add_readers(w, th, 1);
    w->sharers[(size_t)op->construct * w->nnodes + th->node]++;
    if (shares_anything(w, th))
        rates_changed(w, now);
    else /* its start changes nobody's rate: only its own time */
        th->duration = piece_time(w, th);
}

static void record_span(struct world *w, unsigned t, double start, double end)
{
    if (!w->in->timeline)
        return;
    if (w->nspans == MAX_SPANS) {
        w->spans_truncated = true;
        return;
    }
    if (w->nspans == w->spans_cap)
        w->spans = sim_grow(w->spans, &w->spans_cap, sizeof *w->spans, 1024, "the timeline");
    w->spans[w->nspans++] = (struct span){t, w->current_construct, start, end};
}

static void piece_end(struct world *w, unsigned t, double now)
{
    struct sim_thread *th = &w->threads[t];
    th->state = TH_READY;
    th->at = now;
    add_readers(w, th, -1);
    w->sharers[(size_t)th->piece.op->construct * w->nnodes + th->node]--;
    if (shares_anything(w, th))
        rates_changed(w, now);
    th->busy_ns += now - th->started;
    th->pieces++;
    th->last_end = now;
    record_span(w, t, th->started, now);
}

/* When thread t's current state next needs the clock; INFINITY: never. */
static double event_time(const struct world *w, const struct sim_thread *th)
{
    switch (th->state) {
    case TH_READY:
    case TH_STARTING:
        return th->at;
    case TH_RUNNING:
        return delivered_by(w, th->core, th->since, (1 - th->progress) * th->duration);
    case TH_ASLEEP:
        break;
    }
    return INFINITY;
}

static void heap_swap(struct world *w, unsigned a, unsigned b)
{
    unsigned ta = w->heap[a], tb = w->heap[b];
    w->heap[a] = tb;
    w->heap[b] = ta;
    w->heap_pos[tb] = a;
    w->heap_pos[ta] = b;
}

/* Whether heap entry a goes before b: earlier, ties by lower thread id
 * (so that runs are deterministic). */
static bool heap_before(const struct world *w, unsigned a, unsigned b)
{
    unsigned ta = w->heap[a], tb = w->heap[b];
    return w->heap_key[ta] < w->heap_key[tb] || (w->heap_key[ta] == w->heap_key[tb] && ta < tb);
}

/* Places thread t by its current event time. */
static void heap_update(struct world *w, unsigned t)
{
    w->heap_key[t] = event_time(w, &w->threads[t]);
    unsigned i = w->heap_pos[t];
    while (i > 0 && heap_before(w, i, (i - 1) / 2)) {
        heap_swap(w, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < w->nthreads && heap_before(w, l, m))
            m = l;
        if (r < w->nthreads && heap_before(w, r, m))
            m = r;
        if (m == i)
            return;
        heap_swap(w, i, m);
        i = m;
    }
}

double world_run_phase(struct world *w, const struct phase_rules *rules, double from)
{
    double last = from;
    for (unsigned t = 0; t < w->nthreads; t++) {
        w->heap[t] = t;
        w->heap_pos[t] = t;
        w->heap_key[t] = INFINITY;
    }
    for (unsigned t = 0; t < w->nthreads; t++)
        heap_update(w, t);
    w->in_phase = true;
    for (;;) {
        unsigned who = w->heap[0];
        double when = w->heap_key[who];
        if (when == INFINITY) {
            w->in_phase = false;
            return last;
        }
        struct sim_thread *th = &w->threads[who];
        switch (th->state) {
        case TH_READY:
            rules->decide(w, who, rules->ctx);
            break;
        case TH_STARTING:
            piece_begin(w, who, when);
            break;
        case TH_RUNNING:
            piece_end(w, who, when);
            if (when > last)
                last = when;
            if (rules->finished)
                rules->finished(w, who, when, rules->ctx);
            break;
        case TH_ASLEEP:
            break;
        }
        heap_update(w, who);
    }
}

void world_wake(struct world *w, unsigned t, double at)
{
    struct sim_thread *th = &w->threads[t];
    if (th->state != TH_ASLEEP)
        return;
    th->state = TH_READY;
    th->at = at;
    if (w->in_phase)
        heap_update(w, t);
}

void world_wake_by(struct world *w, unsigned t, double at)
{
    struct sim_thread *th = &w->threads[t];
    if (th->state == TH_READY && th->at > at) {
        th->at = at;
        if (w->in_phase)
            heap_update(w, t);
        return;
    }
    world_wake(w, t, at);
}
