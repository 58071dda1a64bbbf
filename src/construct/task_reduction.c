/* task_reduction.c — task reductions (gcc 12's protocol): taskgroup task_reduction, in_reduction, and reduction(task, ...) on parallel and worksharing constructs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "construct/task_reduction.h"
#include "base/fatal.h"
#include "core/task.h"
#include "core/barrier_wait.h"
#include "core/team.h"
#include "core/thread.h"
#include "core/wait.h"
#include "core/ws.h"

/*
 * gcc describes the list items of one reduction clause set in an array of
 * uintptr_t that lives in the encountering thread's frame ("data"):
 *
 *   data[0]  cnt: number of list items
 *   data[1]  size: bytes of one thread's block of private copies
 *   data[2]  in: alignment of that block; out (the runtime writes it): the
 *            address of the array of nthreads blocks, thread i's at
 *            data[2] + i * data[1]; gcc's code reads it directly
 *   data[3]  allocator (-1: malloc); ilan, like libgomp, always uses malloc
 *   data[4]  in: the next array of the same clause set, 0 for none; out:
 *            the last array of the set links to the registration it hides
 *            (the enclosing one), forming one chain through all of them
 *   data[5]  runtime-private: in the first array of a registration, the
 *            lookup table by original address (struct treduce_table); 0 in
 *            the others, which is how unregistering finds where its own
 *            registration ends in the chain
 *   data[6]  runtime-private: end of the array of blocks (data[2] + nthreads * size)
 *   then cnt entries of three words, by increasing offset:
 *   ent[0]   address of the original list item
 *   ent[1]   offset of its private copy inside a thread's block
 *   ent[2]   runtime-private: the array (data) the entry belongs to
 *
 * The blocks are zeroed; gcc's code initializes each thread's copies (and a
 * flag saying it did) and, at the end, combines every thread's block into
 * the original items itself, then calls the unregister entry point. A
 * thread's copy of an item is found by GOMP_task_reduction_remap from the
 * item's original address (or from the address of a copy, for nested
 * in_reduction), using the registration of the taskgroup in effect.
 */

/* Lookup of every list item visible from one registration (its own and the
 * ones it hides, its own winning), by original address. Open addressing. */
struct treduce_table {
    size_t mask;       /* number of slots - 1 (a power of two, at least twice count) */
    size_t count;      /* entries stored */
    uintptr_t *slot[]; /* an entry (&data[7 + 3 * j]) or NULL */
};

static size_t table_hash(uintptr_t addr, size_t mask)
{
    return (size_t)((addr >> 3) * 0x9E3779B97F4A7C15ull >> 17) & mask;
}

/* Stores entry e, replacing an entry for the same address. */
static void table_put(struct treduce_table *t, uintptr_t *e)
{
    size_t i = table_hash(e[0], t->mask);
    while (t->slot[i] && t->slot[i][0] != e[0])
        i = (i + 1) & t->mask;
    if (!t->slot[i])
        t->count++;
    t->slot[i] = e;
}

static uintptr_t *table_get(const struct treduce_table *t, uintptr_t addr)
{
    size_t i = table_hash(addr, t->mask);
    for (; t->slot[i]; i = (i + 1) & t->mask)
        if (t->slot[i][0] == addr)
            return t->slot[i];
    return NULL;
}

static struct treduce_table *table_new(size_t entries)
{
    size_t n = 8;
    while (n < 2 * entries)
        n *= 2;
    struct treduce_table *t = calloc(1, sizeof *t + n * sizeof t->slot[0]);
    if (!t)
        ilan_fatal("out of memory for task reduction lookup (%zu entries)", entries);
    t->mask = n - 1;
    return t;
}

/*
 * Registers the chain starting at `data` for a team of nthreads, hiding the
 * registration `old` (NULL for none). With `orig` NULL, allocates the
 * zeroed private copies; otherwise shares those of `orig`, the same clause
 * set already registered by another thread of the team (worksharing
 * constructs). Builds data's own lookup table in data[5].
 */
static void treduce_register(uintptr_t *data, uintptr_t *old, uintptr_t *orig, unsigned nthreads)
{
    size_t total = 0;
    uintptr_t *d = data;
    for (;;) {
        if (orig) {
            d[2] = orig[2];
            d[6] = orig[6];
            orig = (uintptr_t *)orig[4];
        } else {
            size_t align = d[2] < sizeof(void *) ? sizeof(void *) : (size_t)d[2];
            size_t size = (size_t)d[1] * nthreads;
            void *p = NULL;
            if (posix_memalign(&p, align, size ? size : 1))
                ilan_fatal("out of memory for task reduction copies (%zu bytes)", size);
            memset(p, 0, size);
            d[2] = (uintptr_t)p;
            d[6] = (uintptr_t)p + size;
        }
        d[5] = 0;
        total += d[0];
        if (d[4] == 0) {
            d[4] = (uintptr_t)old;
            break;
        }
        d = (uintptr_t *)d[4];
    }
    struct treduce_table *hidden = old ? (struct treduce_table *)old[5] : NULL;
    struct treduce_table *t = table_new(total + (hidden ? hidden->count : 0));
    if (hidden)
        for (size_t i = 0; i <= hidden->mask; i++)
            if (hidden->slot[i])
                table_put(t, hidden->slot[i]);
    for (d = data;; d = (uintptr_t *)d[4]) {
        for (size_t j = 0; j < d[0]; j++) {
            uintptr_t *e = d + 7 + 3 * j;
            e[2] = (uintptr_t)d;
            table_put(t, e);
        }
        if (d[4] == (uintptr_t)old)
            break;
    }
    data[5] = (uintptr_t)t;
}

/* Team size for the private copies: what omp_get_num_threads() says. */
static unsigned team_size(struct ilan_thread *ts)
{
    return ts->team ? ts->team->nthreads : 1;
}

static struct taskgroup *current_group(const char *entry)
{
    struct taskgroup *g = task_current_taskgroup();
    if (!g)
        ilan_fatal("%s outside every taskgroup", entry);
    return g;
}

/* The registration in effect in group g: its own, else the nearest
 * enclosing group's (a task's groups continue those of its creator), as
 * libgomp's taskgroups inherit their enclosing group's reductions. */
static uintptr_t *effective_reductions(const struct taskgroup *g)
{
    for (; g; g = g->prev)
        if (g->reductions)
            return g->reductions;
    return NULL;
}

void treduce_taskgroup_register(uintptr_t *data)
{
    struct taskgroup *g = current_group("GOMP_taskgroup_reduction_register");
    treduce_register(data, effective_reductions(g), NULL, team_size(thread_self()));
    g->reductions = data;
}

/* Frees what registering `data` made: its lookup table, and the private
 * copies of every array of its registration (those up to the next array
 * that owns a table, i.e. the registration it hid). */
void treduce_taskgroup_unregister(uintptr_t *data)
{
    free((void *)data[5]);
    uintptr_t *d = data;
    do {
        free((void *)d[2]);
        d = (uintptr_t *)d[4];
    } while (d && !d[5]);
}

/* Finds, in the chain from `data`, the array whose blocks contain `p`. */
static uintptr_t *block_of(uintptr_t *data, uintptr_t p)
{
    for (uintptr_t *d = data; d; d = (uintptr_t *)d[4])
        if (p >= d[2] && p < d[6])
            return d;
    return NULL;
}

/* For i < cnt, replaces ptrs[i] (the address of an original list item, or
 * of some thread's copy of it) by the calling thread's copy; for i <
 * cntorig also stores the original item's address in ptrs[cnt + i]. */
void treduce_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    struct ilan_thread *ts = thread_self();
    uintptr_t id = ts->team_id;
    uintptr_t *data = effective_reductions(current_group("GOMP_task_reduction_remap"));
    if (!data)
        ilan_fatal("in_reduction without a matching task_reduction (GOMP_task_reduction_remap)");
    const struct treduce_table *t = (const struct treduce_table *)data[5];
    for (size_t i = 0; i < cnt; i++) {
        uintptr_t p = (uintptr_t)ptrs[i];
        uintptr_t *e = table_get(t, p);
        if (e) {
            uintptr_t *d = (uintptr_t *)e[2];
            ptrs[i] = (void *)(d[2] + id * d[1] + e[1]);
            if (i < cntorig)
                ptrs[cnt + i] = (void *)e[0];
            continue;
        }
        /* The address of a copy: same offset in this thread's block. */
        uintptr_t *d = block_of(data, p);
        if (!d)
            ilan_fatal("no task_reduction or reduction with task modifier matches %p", ptrs[i]);
        uintptr_t off = (p - d[2]) % d[1];
        ptrs[i] = (void *)(d[2] + id * d[1] + off);
        if (i < cntorig) {
            /* Entries are sorted by offset. */
            size_t lo = 0, hi = d[0];
            while (lo < hi) {
                size_t m = lo + (hi - lo) / 2;
                if (d[7 + 3 * m + 1] < off)
                    lo = m + 1;
                else
                    hi = m;
            }
            if (lo == d[0] || d[7 + 3 * lo + 1] != off)
                ilan_fatal("no task_reduction or reduction with task modifier matches %p",
                           (void *)p);
            ptrs[cnt + i] = (void *)d[7 + 3 * lo];
        }
    }
}

/* ---- worksharing constructs (loop.c, sections.c, scope) ---- */

void treduce_ws_begin(void)
{
    task_taskgroup_new()->internal = true;
}

uintptr_t *treduce_ws_register(uintptr_t *data, uintptr_t *first, unsigned nthreads)
{
    struct taskgroup *g = current_group("a worksharing construct with task reductions");
    treduce_register(data, effective_reductions(g), first, nthreads);
    g->reductions = data;
    return data;
}

/* Ends the calling thread's taskgroup of a worksharing construct with task
 * reductions (after gcc's code has combined the copies on thread 0): waits
 * for its tasks, frees the copies (thread 0) or this thread's lookup table
 * (the others), then the construct's closing barrier unless cancelled. */
void treduce_ws_end(bool cancelled)
{
    struct ilan_thread *ts = thread_self();
    struct taskgroup *g = current_group("GOMP_workshare_task_reduction_unregister");
    uintptr_t *data = g->reductions;
    task_taskgroup_free(task_taskgroup_end());
    if (ts->team_id == 0)
        treduce_taskgroup_unregister(data);
    else
        free((void *)data[5]);
    if (!cancelled)
        barrier_wait_team(ts);
}

/* scope reduction(task, ...): a worksharing construct with no work; the
 * slot only carries the first thread's registration to the others, so
 * each thread leaves it as soon as it has registered. gcc emits the
 * closing barrier and GOMP_workshare_task_reduction_unregister. */
void treduce_scope_start(uintptr_t *reductions)
{
    struct ilan_thread *ts = thread_self();
    treduce_ws_begin();
    if (!ts->team) {
        treduce_ws_register(reductions, NULL, 1);
        return;
    }
    bool initialize = false;
    struct ws *w = ws_enter(ts, &initialize);
    if (initialize) {
        w->task_reductions = treduce_ws_register(reductions, NULL, ts->team->nthreads);
        ws_publish(ts, w);
    } else {
        treduce_ws_register(reductions, w->task_reductions, ts->team->nthreads);
    }
    ws_leave(ts);
}

/* ---- parallel reduction(task, ...) ---- */

/* What every thread of a GOMP_parallel_reductions region starts from. */
struct treduce_parallel {
    void (*fn)(void *); /* gcc's outlined region body */
    void *data;         /* its argument block; its first word points to the reduction data */
    uintptr_t *rdata;   /* the reduction data (gcc's array, in the encountering frame) */
    unsigned nthreads;  /* team size, written by the master before it advances `ready` */
    seqword ready;      /* advanced by the master once the private copies exist */
};

/* Region body: the master registers the reduction data for the team (the
 * workers wait for that: gcc's code reads data[2] first thing), then every
 * implicit task runs gcc's body inside a taskgroup that carries the
 * registration, so that in_reduction tasks find it. */
static void parallel_body(void *arg)
{
    struct treduce_parallel *p = arg;
    struct ilan_thread *ts = thread_self();
    if (ts->team_id == 0) {
        p->nthreads = team_size(ts);
        treduce_register(p->rdata, NULL, NULL, p->nthreads);
        seq_advance(&p->ready, 0);
    } else {
        seq_wait_past(&p->ready, 0);
    }
    struct taskgroup g;
    task_taskgroup_start(&g);
    g.internal = true; /* a parallel construct's task reductions, not a taskgroup region */
    g.reductions = p->rdata;
    p->fn(p->data);
    task_taskgroup_end();
}

/* Returns the team size: gcc's code then combines that many blocks and
 * calls GOMP_taskgroup_reduction_unregister. */
unsigned treduce_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                          unsigned proc_bind)
{
    struct treduce_parallel p = {fn, data, *(uintptr_t **)data, 0, {0}};
    team_begin(parallel_body, &p, num_threads, true, proc_bind);
    parallel_body(&p);
    team_end();
    return p.nthreads;
}
