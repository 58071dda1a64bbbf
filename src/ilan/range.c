/* range.c — ILAN's range launch: claiming task numbers from a group's range and running them as included tasks on a copy of the encounter's argument block. */
#include "ilan/range.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/task_included.h"
#include "sched/taskloop_split.h"
#include "ilan/data.h"
#include "sched/numa_dist.h"
#include "instr/counters.h"

/* Argument blocks up to this size are built on the runner's stack. */
#define RANGE_STACK_BLOCK 2048

static inline uint64_t pack(uint32_t lo, uint32_t hi)
{
    return (uint64_t)lo | (uint64_t)hi << 32;
}

/* The bytes the snapshot of the block follows the header with. */
static size_t header_size(unsigned k, size_t align)
{
    size_t h = sizeof(struct ilan_launch) + (ILAN_CACHE_LINE - 1);
    h = h / ILAN_CACHE_LINE * ILAN_CACHE_LINE + (size_t)k * sizeof(struct ilan_range);
    return (h + align - 1) / align * align;
}

bool ilan_range_fits(const struct taskloop_body *body, iter_ull ntasks)
{
    return body->cpyfn == NULL && ntasks < UINT32_MAX && body->arg_size >= 0;
}

/* The alignment a launch for body needs (its argument block's, at least a
 * cache line) and its block's size. */
static size_t launch_align(const struct taskloop_body *body, size_t *block)
{
    size_t align = body->arg_align > 1 ? (size_t)body->arg_align : 1;
    *block = (size_t)body->arg_size < 2 * sizeof(iter_ull) ? 2 * sizeof(iter_ull)
                                                           : (size_t)body->arg_size;
    return align < ILAN_CACHE_LINE ? ILAN_CACHE_LINE : align;
}

static size_t launch_size(size_t align, size_t block, unsigned k)
{
    return (header_size(k, align) + block + align - 1) / align * align;
}

size_t ilan_range_size(const struct taskloop_body *body, unsigned k)
{
    size_t block, align = launch_align(body, &block);
    return align > ILAN_CACHE_LINE ? 0 : launch_size(align, block, k);
}

/* Copies size bytes from src to dst unless dst holds them already. The
 * creator of a launch writes its header and block at every execution of a
 * taskloop, mostly with what the last execution wrote there: a line left
 * alone stays valid in the cache of the worker that read it then, which
 * spares that worker a miss on its way to its first task. */
static void keep_or_copy(void *dst, const void *src, size_t size)
{
    if (memcmp(dst, src, size) != 0)
        memcpy(dst, src, size);
}

/* Whether a launch's body `kept` is `body` with its block at snapshot
 * (field by field: padding may differ). */
static bool same_body(const struct taskloop_body *kept, const struct taskloop_body *body,
                      const void *snapshot)
{
    return kept->fn == body->fn && kept->data == snapshot && kept->cpyfn == body->cpyfn &&
           kept->arg_size == body->arg_size && kept->arg_align == body->arg_align &&
           kept->flags == body->flags && kept->start == body->start &&
           kept->step == body->step && kept->data_array == body->data_array &&
           kept->data_size == body->data_size;
}

/* keep_or_copy for one scalar field. */
#define KEEP_OR_SET(field, value)                                                                  \
    do {                                                                                           \
        if ((field) != (value))                                                                    \
            (field) = (value);                                                                     \
    } while (0)

struct ilan_launch *ilan_range_new(void *mem, const struct taskloop_body *body,
                                   const struct taskloop_split *split, unsigned k,
                                   const unsigned *workers, const iter_ull *first,
                                   const iter_ull *strict_end, struct ilan_data *data,
                                   bool one_by_one)
{
    size_t block, align = launch_align(body, &block);
    size_t head = header_size(k, align);
    struct ilan_launch *l = mem ? mem : aligned_alloc(align, launch_size(align, block, k));
    if (!l)
        ilan_fatal("out of memory launching a taskloop for %u thread groups", k);
    if (!mem)
        memset(l, 0, head); /* compared below before written */
    void *snapshot = (char *)l + head;
    if (!same_body(&l->body, body, snapshot)) {
        l->body = *body;
        l->body.data = snapshot;
    }
    keep_or_copy(&l->split, split, sizeof *split);
    KEEP_OR_SET(l->nranges, k);
    struct ilan_range *ranges = (struct ilan_range *)((char *)l + (sizeof *l + ILAN_CACHE_LINE - 1) /
                                                                      ILAN_CACHE_LINE * ILAN_CACHE_LINE);
    KEEP_OR_SET(l->ranges, ranges);
    KEEP_OR_SET(l->block_size, block);
    KEEP_OR_SET(l->block_align, body->arg_align > 1 ? (size_t)body->arg_align : 1);
    KEEP_OR_SET(l->data, data);
    KEEP_OR_SET(l->one_by_one, one_by_one);
    /* The block: the encounter's bytes, then zeros up to the two bounds. */
    size_t copied = body->arg_size > 0 ? (size_t)body->arg_size : 0;
    if (copied)
        keep_or_copy(snapshot, body->data, copied);
    static const char zeros[2 * sizeof(iter_ull)];
    if (block > copied) /* only a block smaller than the bounds */
        keep_or_copy((char *)snapshot + copied, zeros, block - copied);
    bool shareable = false;
    for (unsigned j = 0; j < k; j++) {
        atomic_store_explicit(&ranges[j].bounds, pack((uint32_t)first[j], (uint32_t)first[j + 1]),
                              memory_order_relaxed);
        ranges[j].strict_end = (uint32_t)strict_end[j];
        ranges[j].workers = workers[j];
        ranges[j].node = -1;
        shareable |= strict_end[j] < first[j + 1];
    }
    KEEP_OR_SET(l->shareable, shareable);
    /* The hints' line is reset only when the last launch set them. */
    if (atomic_load_explicit(&l->shareable_gone, memory_order_relaxed))
        atomic_store_explicit(&l->shareable_gone, false, memory_order_relaxed);
    if (atomic_load_explicit(&l->empty_below, memory_order_relaxed))
        atomic_store_explicit(&l->empty_below, 0, memory_order_relaxed);
    return l;
}

/* Claims a runner's share of r's front (numa_dist_own_claim; one task
 * when `one`): true and [*i, *end), or false when r is empty. */
static bool claim_front(struct ilan_range *r, bool one, uint32_t *i, uint32_t *end)
{
    uint64_t b = atomic_load_explicit(&r->bounds, memory_order_relaxed);
    for (;;) {
        uint32_t lo = (uint32_t)b, hi = (uint32_t)(b >> 32);
        if (lo >= hi)
            return false;
        uint32_t cut = lo + (one ? 1 : (uint32_t)numa_dist_own_claim(hi - lo, r->workers));
        if (atomic_compare_exchange_weak_explicit(&r->bounds, &b, pack(cut, hi),
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *i = lo;
            *end = cut;
            return true;
        }
    }
}

/* Claims a thief's share (numa_dist_steal_share: half for a group of one)
 * of what lies past r's strict part, from the back: true and [*i, *end),
 * or false when nothing there is shareable. A share in one CAS, not a
 * task per CAS: a thief and the range's owner claiming
 * single tasks at the two ends of one word bounced its line between their
 * CPUs at every task, which made `full` stealing twice as slow as
 * `strict` on a grainsize(1) taskloop of 10 ns tasks. */
static bool claim_back(struct ilan_range *r, uint32_t *i, uint32_t *end)
{
    uint64_t b = atomic_load_explicit(&r->bounds, memory_order_relaxed);
    for (;;) {
        uint32_t lo = (uint32_t)b, hi = (uint32_t)(b >> 32);
        uint32_t floor = lo > r->strict_end ? lo : r->strict_end;
        if (hi <= floor)
            return false;
        uint32_t cut = hi - (uint32_t)numa_dist_steal_share(hi - floor, r->workers);
        if (atomic_compare_exchange_weak_explicit(&r->bounds, &b, pack(lo, cut),
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *i = cut;
            *end = hi;
            return true;
        }
    }
}

/* The next tasks [*i, *end) for a runner of range j working first on
 * range `first`: its share of the front of that range, then of its own range
 * (every task of a range, its strict part too, is left to the range's own
 * runners: so each must empty it), then half of the shareable tasks of
 * another, nearest first. Counted as the group queues' takes are: own
 * range, another's front (strict part included), another's shareable
 * back. */
static bool claim_next(struct ilan_launch *l, unsigned first, unsigned j, bool home,
                       uint32_t *i, uint32_t *end, bool *foreign)
{
    if (claim_front(&l->ranges[first], l->one_by_one, i, end)) {
        ILAN_COUNT_N_IF(first == j && home, group_own, group_strict_other, *end - *i);
        *foreign |= first != j;
        return true;
    }
    if (first != j && claim_front(&l->ranges[j], l->one_by_one, i, end)) {
        ILAN_COUNT_N_IF(home, group_own, group_strict_other, *end - *i);
        return true;
    }
    /* Ranges first and j are empty now, so a look at all the others that
     * finds nothing shareable holds for good: the next runners skip it
     * (with a group per thread, 5,000 runners each looking at 5,000
     * ranges took most of a taskloop's time). */
    if (!l->shareable || atomic_load_explicit(&l->shareable_gone, memory_order_relaxed))
        return false;
    for (unsigned d = 1, r = j + 1; d < l->nranges; d++, r++) {
        if (r == l->nranges)
            r = 0;
        if (claim_back(&l->ranges[r], i, end)) {
            ILAN_COUNT_N(group_other, *end - *i);
            *foreign = true;
            return true;
        }
    }
    atomic_store_explicit(&l->shareable_gone, true, memory_order_relaxed);
    return false;
}

/* Runs tasks [i, end) on thread ts, as included tasks of its current
 * task, one after the other on one descriptor (task_included_batch), on
 * block (the runner's copy of the encounter's block) with each task's
 * bounds written over its first two words. The tasks of one runner share
 * its copy, as the undeferred ones share the encounter's block
 * (construct/taskloop.c says why no task changes it). A batch per claim:
 * between claims the runner may make tasks (watch_range), as itself. */
static void run_tasks(struct ilan_thread *ts, const struct ilan_launch *l, uint32_t i,
                      uint32_t end, void *block)
{
    iter_ull *bounds = block, first, ignored;
    taskloop_task_bounds(&l->split, l->body.start, l->body.step, i, &first, &ignored);
    struct task_included_batch b;
    task_included_batch_begin(ts, &b, block, l->body.flags);
    for (; i < end; i++) {
        /* The claim's tasks are consecutive: each starts where the last ended. */
        bounds[0] = first;
        first = bounds[1] = taskloop_task_end(&l->split, l->body.step, i, first);
        task_included_batch_run(ts, &b, l->body.fn, block);
        if (l->data)
            ilan_data_ran(l->data, i);
    }
    task_included_batch_end(ts, &b);
}

/* ilan_range_work with room for the runner's block in `raw` (block_size + block_align bytes). */
static unsigned work_on(struct ilan_launch *l, unsigned first, unsigned j, bool home,
                        bool *foreign, void (*told)(void *, unsigned), void *ctx, char *raw)
{
    uintptr_t a = l->block_align;
    void *block = (void *)(((uintptr_t)raw + a - 1) & ~(a - 1));
    memcpy(block, l->body.data, l->block_size);
    unsigned ran = 0;
    uint32_t i, end;
    struct ilan_thread *ts = thread_self();
    while (claim_next(l, first, j, home, &i, &end, foreign)) {
        unsigned claimed = end - i;
        run_tasks(ts, l, i, end, block);
        ran += claimed;
        if (told)
            told(ctx, claimed);
    }
    return ran;
}

unsigned ilan_range_work(struct ilan_launch *l, unsigned first, unsigned j, bool home,
                         bool *foreign, void (*ran)(void *ctx, unsigned count), void *ctx)
{
    *foreign = false;
    size_t need = l->block_size + l->block_align;
    if (need <= RANGE_STACK_BLOCK) {
        char raw[RANGE_STACK_BLOCK] __attribute__((aligned(16)));
        return work_on(l, first, j, home, foreign, ran, ctx, raw);
    }
    char *raw = malloc(need);
    if (!raw)
        ilan_fatal("out of memory copying a task's %zu-byte argument block", l->block_size);
    unsigned done = work_on(l, first, j, home, foreign, ran, ctx, raw);
    free(raw);
    return done;
}

bool ilan_range_empty(struct ilan_launch *l)
{
    unsigned from = atomic_load_explicit(&l->empty_below, memory_order_relaxed), j;
    for (j = from; j < l->nranges; j++) {
        uint64_t b = atomic_load_explicit(&l->ranges[j].bounds, memory_order_relaxed);
        if ((uint32_t)b < (uint32_t)(b >> 32))
            break;
    }
    /* A racing runner may store a lower bound after ours: still true. */
    if (j > from)
        atomic_store_explicit(&l->empty_below, j, memory_order_relaxed);
    return j == l->nranges;
}
