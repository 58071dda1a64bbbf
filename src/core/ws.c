/* ws.c — claiming, publishing and releasing the team's work-share slots. */
#include "core/ws.h"

#include "core/team.h"
#include "core/thread.h"

/* True once every thread has left the construct that last used slot w. */
static bool slot_drained(void *arg)
{
    struct ws *w = arg;
    struct team *t = ilan_tls.team;
    return atomic_load_explicit(&w->left, memory_order_acquire) == t->nthreads;
}

struct ws *ws_enter(struct ilan_thread *ts, bool *initialize)
{
    struct team *t = ts->team;
    unsigned k = ++ts->ws_seq;
    struct ws *w = &t->ws_ring[k % ILAN_WS_RING];
    ts->ws = w;
    for (;;) {
        unsigned seen = seq_read(&w->published);
        if (atomic_load_explicit(&w->published_k, memory_order_acquire) == k) {
            *initialize = false;
            return w;
        }
        unsigned owner = atomic_load_explicit(&w->claimed, memory_order_acquire);
        if (owner == k) {
            /* Another thread is initializing construct k: wait for it. */
            seq_wait_past(&w->published, seen);
            continue;
        }
        /* The slot still holds an older construct; it can be taken once
         * every thread has left that one. */
        if (!slot_drained(w)) {
            wait_spin_until(slot_drained, w);
            continue;
        }
        if (atomic_compare_exchange_strong_explicit(&w->claimed, &owner, k, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            atomic_store_explicit(&w->left, 0, memory_order_relaxed);
            *initialize = true;
            return w;
        }
    }
}

void ws_publish(struct ilan_thread *ts, struct ws *w)
{
    atomic_store_explicit(&w->published_k, ts->ws_seq, memory_order_release);
    seq_advance(&w->published, seq_read(&w->published));
}

void ws_leave(struct ilan_thread *ts)
{
    struct ws *w = ts->ws;
    atomic_fetch_add_explicit(&w->left, 1, memory_order_acq_rel);
    ts->ws = NULL;
}
