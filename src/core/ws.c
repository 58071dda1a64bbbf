/* ws.c — claiming, publishing and releasing the team's work-share slots. */
#include "core/ws.h"

#include <assert.h>
#include "core/team_desc.h"
#include "core/thread.h"

/* A slot a thread wants for a new construct, and the owner it last saw. */
struct ws_claim {
    struct ws *w;   /* the slot */
    unsigned owner; /* construct number seen in w->claimed */
};

/* True once every thread has left the construct that last used the slot, or
 * once another thread has claimed it (it may already hold the construct we
 * want, and we are one of the threads that must leave it). */
static bool slot_free_or_taken(void *arg)
{
    struct ws_claim *c = arg;
    if (atomic_load_explicit(&c->w->claimed, memory_order_acquire) != c->owner)
        return true;
    return atomic_load_explicit(&c->w->left, memory_order_acquire) == ilan_tls.team->nthreads;
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
        struct ws_claim claim = {w, owner};
        if (!slot_free_or_taken(&claim)) {
            wait_spin_until(slot_free_or_taken, &claim);
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
    assert(w != NULL && "leaving a worksharing construct never entered");
    assert(atomic_load_explicit(&w->left, memory_order_relaxed) < ts->team->nthreads);
    atomic_fetch_add_explicit(&w->left, 1, memory_order_acq_rel);
    ts->ws = NULL;
}

static __thread struct ws solo_ws; /* see ws_solo */

struct ws *ws_solo(void)
{
    return &solo_ws;
}

void ws_solo_thread_exit(void)
{
    ws_loop_destroy(&solo_ws.loop);
}
