/* single.c — the single construct, with and without copyprivate. */
#include "abi/export.h"
#include "core/barrier_wait.h"
#include "core/team.h"

/* True for exactly one thread of the team per single construct: the first
 * to arrive. Threads number their singles; the team records the highest
 * number claimed so far. */
static bool single_claim(struct ilan_thread *ts, struct team *t)
{
    unsigned k = ++ts->single_seq;
    unsigned previous = k - 1;
    return atomic_compare_exchange_strong_explicit(&t->single_claimed, &previous, k,
                                                   memory_order_acq_rel, memory_order_relaxed);
}

ILAN_EXPORT _Bool GOMP_single_start(void)
{
    struct ilan_thread *ts = thread_self();
    struct team *t = ts->team;
    if (!t || t->nthreads == 1)
        return true;
    return single_claim(ts, t);
}

/* Returns NULL to the thread that runs the single body (it then calls
 * GOMP_single_copy_end with its data); the others get that data. */
ILAN_EXPORT void *GOMP_single_copy_start(void)
{
    struct ilan_thread *ts = thread_self();
    struct team *t = ts->team;
    if (!t || t->nthreads == 1 || single_claim(ts, t))
        return NULL;
    barrier_wait(&t->barrier);
    return t->copyprivate;
}

/* gcc follows the construct with a barrier, so the data stays valid until
 * every thread has copied it. */
ILAN_EXPORT void GOMP_single_copy_end(void *data)
{
    struct team *t = thread_self()->team;
    if (!t || t->nthreads == 1)
        return;
    t->copyprivate = data;
    barrier_wait(&t->barrier);
}
