/* ordered.c — the ordered construct (token passing between chunks) and doacross loops (post and wait on records). */

/*
 * ORDERED. Chunks of an ordered loop are logical ranges [lb, le) that tile
 * [0, n). The shared word ordered_pos holds the lb of the chunk that owns
 * the "ordered token": only its holder may run ordered regions. A thread
 * that has chunk [lb, le) waits in GOMP_ordered_start until ordered_pos ==
 * lb (every ordered region of the chunk then runs without further waiting,
 * in iteration order, since one thread runs the chunk sequentially);
 * GOMP_ordered_end does nothing. The token moves on when the thread is done
 * with the chunk: at its next GOMP_loop_*_next or at GOMP_loop_end*, it
 * waits for ordered_pos == lb (so chunks without an ordered region also
 * pass the token in order), then stores ordered_pos = le. Every schedule
 * hands chunks out in increasing lb per thread, and dynamic/guided claims
 * are increasing globally, so the holder of the lowest unpassed chunk is
 * always running or about to claim it: no deadlock. Waiting: a thread that
 * must wait announces want = lb + 1 in its own ordered_waiter and sleeps on
 * its own seqword; the passer stores ordered_pos, then wakes only the
 * thread whose want equals the new position (both sides use seq_cst, so
 * either the waiter sees the new position or the passer sees the want).
 * Passers of consecutive chunks can overlap, so wake words are advanced with
 * a compare-and-swap (seq_kick), not seq_advance.
 *
 * DOACROSS. The loop runs over dimension 0, [0, counts[0]); an iteration
 * vector (i0, ..., ik) flattens to i0 * stride0 + ... + ik (mixed radix of
 * counts). Dimension-0 iterations are grouped into records that one thread
 * executes in increasing order: per thread for static schedules (a
 * thread's chunks are increasing), per chunk for dynamic, per iteration for
 * guided. GOMP_doacross_post stores flat + 1 into the record (monotonic),
 * then kicks the record's seqword; GOMP_doacross_wait on a vector inside
 * the iteration space waits until the record of its i0 holds more than its
 * flat value (vectors outside the space are ignored, as the spec says).
 */
#include "construct/ordered.h"

#include <string.h>
#include "base/fatal.h"
#include "base/tunables.h"
#include "config/icv.h"
#include "core/wait.h"
#include "core/thread.h"
#include "core/ws.h"

/* Advances a seqword that several threads may advance at once, waking
 * sleepers (a compare-and-swap form of seq_advance). */
static void seq_kick(seqword *s)
{
    unsigned w = atomic_load_explicit(&s->word, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&s->word, &w, (w & ~SEQ_SLEEPERS) + SEQ_STEP,
                                                  memory_order_seq_cst, memory_order_relaxed))
        ;
    if (w & SEQ_SLEEPERS)
        os_futex_wake_all(&s->word);
}

/* ---- ordered ---- */

size_t ordered_space(unsigned nthreads)
{
    return (size_t)nthreads * sizeof(struct ordered_waiter);
}

void ordered_setup(struct ws_loop *l, void *waiters)
{
    l->waiters = waiters; /* zeroed by ws_loop_buf: want 0, seqwords at 0 */
}

/* Returns once the chunk starting at lb holds the token. */
static void ordered_wait_turn(struct ws_loop *l, unsigned tid, iter_ull lb)
{
    if (atomic_load_explicit(&l->ordered_pos, memory_order_acquire) == lb)
        return;
    struct ordered_waiter *me = &l->waiters[tid];
    atomic_store_explicit(&me->want, lb + 1, memory_order_seq_cst);
    for (;;) {
        unsigned seen = seq_read(&me->wake);
        if (atomic_load_explicit(&l->ordered_pos, memory_order_seq_cst) == lb)
            break;
        seq_wait_past(&me->wake, seen);
    }
    atomic_store_explicit(&me->want, 0, memory_order_relaxed);
}

void ordered_release(struct ilan_thread *ts)
{
    struct ws_loop *l = &ts->ws->loop;
    struct loop_thread *lt = &ts->loop;
    lt->has_chunk = false;
    if (l->nthreads == 1) {
        atomic_store_explicit(&l->ordered_pos, lt->le, memory_order_relaxed);
        return;
    }
    unsigned tid = ts->team ? ts->team_id : 0;
    ordered_wait_turn(l, tid, lt->lb);
    iter_ull pos = lt->le;
    atomic_store_explicit(&l->ordered_pos, pos, memory_order_seq_cst);
    for (unsigned t = 0; t < l->nthreads; t++) {
        if (atomic_load_explicit(&l->waiters[t].want, memory_order_seq_cst) == pos + 1)
            seq_kick(&l->waiters[t].wake);
    }
}

/* ---- doacross ---- */

static int doacross_map(int sched, iter_ull chunk)
{
    if (sched == ICV_SCHED_DYNAMIC)
        return DOACROSS_MAP_CHUNK;
    if (sched == ICV_SCHED_GUIDED)
        return DOACROSS_MAP_ITER;
    return chunk ? DOACROSS_MAP_CYCLIC : DOACROSS_MAP_BLOCK;
}

static iter_ull doacross_nents(int map, iter_ull n0, iter_ull chunk, unsigned nthreads)
{
    switch (map) {
    case DOACROSS_MAP_CHUNK:
        return (n0 - 1) / chunk + 1;
    case DOACROSS_MAP_ITER:
        return n0;
    default:
        return nthreads;
    }
}

/* Records are a cache line apart when there are few (per thread), packed
 * when there is one per chunk or iteration. */
static size_t doacross_ent_size(iter_ull nents)
{
    return nents <= 1024 ? ILAN_CACHE_LINE : sizeof(struct doacross_ent);
}

/* Whether the loop needs records at all: not for a team of one, nor for an
 * empty nest (post and wait cannot be reached then). */
static bool doacross_needed(unsigned ncounts, const iter_ull *counts, unsigned nthreads)
{
    if (nthreads <= 1 || ncounts == 0)
        return false;
    for (unsigned i = 0; i < ncounts; i++)
        if (counts[i] == 0)
            return false;
    return true;
}

size_t doacross_space(unsigned ncounts, const iter_ull *counts, int sched, iter_ull chunk,
                      unsigned nthreads)
{
    if (!doacross_needed(ncounts, counts, nthreads))
        return 0;
    iter_ull total = 1;
    for (unsigned i = 0; i < ncounts; i++)
        if (__builtin_mul_overflow(total, counts[i], &total))
            ilan_unsupported("GOMP_loop_doacross_*: ordered(n) nest of 2^64 iterations or more");
    if (total == ~0ull)
        ilan_unsupported("GOMP_loop_doacross_*: ordered(n) nest of 2^64 iterations or more");
    int map = doacross_map(sched, chunk);
    iter_ull nents = doacross_nents(map, counts[0], chunk, nthreads);
    size_t head = (sizeof(struct doacross) + 2 * ncounts * sizeof(iter_ull) + ILAN_CACHE_LINE - 1) &
                  ~(size_t)(ILAN_CACHE_LINE - 1);
    return head + (size_t)nents * doacross_ent_size(nents);
}

void doacross_setup(struct ws_loop *l, void *space, unsigned ncounts, const iter_ull *counts,
                    unsigned nthreads)
{
    struct doacross *d = space;
    d->ncounts = ncounts;
    d->map = doacross_map(l->sched, l->chunk);
    d->nthreads = nthreads;
    d->chunk = l->chunk;
    d->counts = (iter_ull *)(d + 1);
    d->strides = d->counts + ncounts;
    iter_ull stride = 1;
    for (unsigned i = ncounts; i-- > 0;) {
        d->counts[i] = counts[i];
        d->strides[i] = stride;
        stride *= counts[i];
    }
    d->nents = doacross_nents(d->map, counts[0], d->chunk, nthreads);
    d->ent_size = doacross_ent_size(d->nents);
    size_t head = (sizeof(struct doacross) + 2 * ncounts * sizeof(iter_ull) + ILAN_CACHE_LINE - 1) &
                  ~(size_t)(ILAN_CACHE_LINE - 1);
    d->ents = (unsigned char *)space + head; /* zeroed by ws_loop_buf */
    l->doacross = d;
}

static inline struct doacross_ent *doacross_rec(struct doacross *d, iter_ull i0)
{
    return (struct doacross_ent *)(d->ents + doacross_ent(d, i0) * d->ent_size);
}

struct doacross *doacross_of_caller(void)
{
    struct ilan_thread *ts = thread_self();
    return ts->ws ? ts->ws->loop.doacross : NULL;
}

void doacross_post(struct doacross *d, const iter_ull *v)
{
    iter_ull flat = 0;
    for (unsigned i = 0; i < d->ncounts; i++)
        flat += v[i] * d->strides[i];
    struct doacross_ent *e = doacross_rec(d, v[0]);
    atomic_store_explicit(&e->posted, flat + 1, memory_order_release);
    seq_kick(&e->wake);
}

void doacross_wait(struct doacross *d, const iter_ull *v)
{
    iter_ull flat = 0;
    for (unsigned i = 0; i < d->ncounts; i++) {
        if (v[i] >= d->counts[i])
            return; /* outside the iteration space: ignored */
        flat += v[i] * d->strides[i];
    }
    struct doacross_ent *e = doacross_rec(d, v[0]);
    if (atomic_load_explicit(&e->posted, memory_order_acquire) > flat)
        return;
    for (;;) {
        unsigned seen = seq_read(&e->wake);
        if (atomic_load_explicit(&e->posted, memory_order_acquire) > flat)
            return;
        seq_wait_past(&e->wake, seen);
    }
}

void ordered_start(struct ilan_thread *ts)
{
    if (!ts->ws || !ts->ws->loop.ordered || !ts->loop.has_chunk || ts->ws->loop.nthreads == 1)
        return;
    ordered_wait_turn(&ts->ws->loop, ts->team ? ts->team_id : 0, ts->loop.lb);
}
