/* loop.c — the worksharing-loop construct: one slot per loop agreed on by the team, chunks claimed, ordered and doacross set up, the loop's end and cancellation; shared by every loop and sections entry point. */
#include "construct/loop.h"

#include <stdint.h>
#include <string.h>
#include "construct/loop_pick.h"
#include "construct/task_reduction.h"
#include "base/fatal.h"
#include "config/icv.h"
#include "core/barrier.h"
#include "core/barrier_wait.h"
#include "core/team.h"
#include "core/thread.h"
#include "core/ws.h"
#include "instr/counters.h"

static size_t round_line(size_t n)
{
    return (n + ILAN_CACHE_LINE - 1) & ~(size_t)(ILAN_CACHE_LINE - 1);
}

void loop_init_slot(struct ws *w, const struct loop_desc *d, unsigned nthreads)
{
    struct ws_loop *l = &w->loop;
    ws_loop_init(l, d->sched, d->n, d->chunk, nthreads);
    loop_pick_setup(l, d->sched, d->site);
    l->start = d->start;
    l->end = d->end;
    l->incr = d->incr;
    l->ull = d->ull;
    l->ordered = d->ordered;

    /* One buffer per slot holds the scratch memory, the ordered wake words
     * and the doacross records, in that order. */
    size_t mem_sz = d->want_mem ? round_line(d->mem_size) : 0;
    size_t ord_sz = d->ordered ? round_line(ordered_space(l->nthreads)) : 0;
    size_t dx_sz = d->ncounts ? round_line(doacross_space(d->ncounts, d->counts, l->sched, l->chunk,
                                                          l->nthreads))
                              : 0;
    size_t eng_sz = round_line(ws_loop_engine_space(l->sched, l->nthreads));
    if (!d->want_mem && ord_sz + dx_sz + eng_sz == 0)
        return;
    unsigned char *buf = ws_loop_buf(l, mem_sz + ord_sz + dx_sz + eng_sz);
    if (eng_sz)
        loop_pick_engine_setup(l, buf + mem_sz + ord_sz + dx_sz);
    if (d->want_mem)
        l->mem = buf;
    if (ord_sz)
        ordered_setup(l, buf + mem_sz);
    if (dx_sz)
        doacross_setup(l, buf + mem_sz + ord_sz, d->ncounts, d->counts, l->nthreads);
}

void loop_init_ws(struct ws *w, void *arg, unsigned nthreads)
{
    loop_init_slot(w, arg, nthreads);
}

struct ws *loop_start(struct ilan_thread *ts, const struct loop_desc *d, void **mem)
{
    struct ws *w;
    memset(&ts->loop, 0, sizeof ts->loop);
    if (d->reductions)
        treduce_ws_begin();
    if (__builtin_expect(ts->team == NULL, 0)) {
        w = ws_solo();
        loop_init_slot(w, d, 1);
        if (d->reductions)
            treduce_ws_register(d->reductions, NULL, 1);
    } else {
        bool initialize = false;
        w = ws_enter(ts, &initialize);
        if (initialize) {
            loop_init_slot(w, d, ts->team->nthreads);
            if (d->reductions)
                w->task_reductions = treduce_ws_register(d->reductions, NULL, ts->team->nthreads);
            ws_publish(ts, w);
        } else if (d->reductions) {
            treduce_ws_register(d->reductions, w->task_reductions, ts->team->nthreads);
        }
    }
    ts->ws = w;
    if (mem)
        *mem = w->loop.mem;
    return w;
}

/* The calling thread is done with l: once, for the loop's record. */
static void loop_finish(struct ilan_thread *ts, struct ws_loop *l)
{
    if (l->rec && !ts->loop.finished) {
        ts->loop.finished = true;
        loop_pick_finish(ts, l);
    }
}

bool loop_claim(struct ilan_thread *ts, iter_ull *lb, iter_ull *le)
{
    struct ws_loop *l = &ts->ws->loop;
    if (l->ordered && ts->loop.has_chunk)
        ordered_release(ts);
    /* GOMP_cancel marks the thread's current slot (cancel.c). */
    if (icv_global.cancellation && ws_loop_is_cancelled(l)) {
        loop_finish(ts, l);
        return false;
    }
    /* At every claim, not once per loop: a nested region in the previous
     * chunk's body may have rebuilt this thread's order for its own team
     * (ilan/victims.c checks the order's key in O(1) and rebuilds it). */
    if (l->ranges) {
        ts->loop.steal.victims = loop_pick_victims(ts, l);
        ts->loop.steal.measure = l->rec != NULL;
    }
    if (!ws_loop_next(l, &ts->loop, ts->team ? ts->team_id : 0)) {
        loop_finish(ts, l);
        return false;
    }
    ts->loop.chunks++;
    ILAN_COUNT(loop_chunks);
    ts->loop.has_chunk = l->ordered;
    *lb = ts->loop.lb;
    *le = ts->loop.le;
    return true;
}

/* The calling thread leaves its current loop: passes on the ordered token,
 * then leaves the slot. Returns the team (NULL outside a region). */
static struct team *loop_leave(struct ilan_thread *ts)
{
    struct team *team = ts->team;
    struct ws *w = ts->ws;
    if (w) {
        struct ws_loop *l = &w->loop;
        if (l->ordered && ts->loop.has_chunk)
            ordered_release(ts);
        /* A thread that leaves before its claims ran dry (cancelled; or
         * gcc computed its iterations inline) is done all the same. */
        loop_finish(ts, l);
        if (team)
            ws_leave(ts);
    }
    ts->ws = NULL;
    return team;
}

void loop_end(void)
{
    struct team *team = loop_leave(thread_self());
    if (team)
        barrier_wait(&team->barrier);
}

void loop_end_nowait(void)
{
    loop_leave(thread_self());
}

bool loop_end_cancel(void)
{
    struct team *team = loop_leave(thread_self());
    return team ? barrier_wait_cancellable(&team->barrier) : false;
}

void loop_runtime_sched(struct ilan_thread *ts, bool may_reorder, int *sched, iter_ull *chunk)
{
    loop_pick_runtime(ts, may_reorder, sched, chunk);
}

void loop_adjust_sched(struct ilan_thread *ts, long sched, bool may_reorder, int *out_sched,
                       iter_ull *chunk)
{
    long s = sched & 0x7fffffffL; /* without the monotonic bit */
    bool monotonic = sched & (long)ICV_SCHED_MONOTONIC;
    if (s == 0 || s == ICV_SCHED_AUTO) /* runtime, or runtime with nonmonotonic */
        loop_runtime_sched(ts, may_reorder && !monotonic, out_sched, chunk);
    else
        *out_sched = loop_pick_kind((int)(unsigned long)sched, may_reorder);
}
