/* history.c — what ILAN remembers per taskloop identity (outlined function, iterations, team size): a lock-free table of entries that live until exit. */
#include "ilan/history.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "base/tunables.h"
#include "config/env.h"
#include "os/linux/symbols.h"

/* Open addressing over (fn, iterations, nthreads); entries are published
 * with a CAS and never removed, so lookups need no lock. */
static struct taskloop_hist *_Atomic history[ILAN_HISTORY_SLOTS];
static _Atomic unsigned history_used;

unsigned ilan_history_slots(void)
{
    return ILAN_HISTORY_SLOTS;
}

struct taskloop_hist *ilan_history_at(unsigned i)
{
    return atomic_load_explicit(&history[i], memory_order_acquire);
}

static unsigned history_hash(void (*fn)(void *), iter_ull n, unsigned nthreads)
{
    uint64_t h = (uint64_t)(uintptr_t)fn * 0x9e3779b97f4a7c15ull;
    h ^= (n + nthreads * 0x100000001b3ull) * 0xff51afd7ed558ccdull;
    return (unsigned)(h >> 40) & (ILAN_HISTORY_SLOTS - 1);
}

static bool history_matches(const struct taskloop_hist *h, void (*fn)(void *), iter_ull n,
                            unsigned nthreads)
{
    return h->fn == fn && h->iterations == n && h->nthreads == nthreads;
}

static void history_entry_free(struct taskloop_hist *h)
{
    mold_free(&h->mold);
    free(h->group_workers);
    free(h);
}

/* A new entry for an identity, not yet published; NULL when out of memory. */
static struct taskloop_hist *history_entry_new(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                               unsigned ngroups)
{
    struct taskloop_hist *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->fn = fn;
    h->iterations = n;
    h->nthreads = nthreads;
    h->group_workers = calloc(ngroups, sizeof *h->group_workers);
    if (!h->group_workers ||
        !mold_init(&h->mold, ngroups, config.taskloop_mode == TASKLOOP_NUMA, config.forced_steal)) {
        free(h->group_workers);
        free(h);
        return NULL;
    }
    return h;
}

struct taskloop_hist *ilan_history_get(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                         unsigned ngroups)
{
    struct taskloop_hist *fresh = NULL;
    unsigned i = history_hash(fn, n, nthreads);
    for (unsigned probes = 0; probes < ILAN_HISTORY_SLOTS;) {
        struct taskloop_hist *h = atomic_load_explicit(&history[i], memory_order_acquire);
        if (h && history_matches(h, fn, n, nthreads)) {
            if (fresh)
                history_entry_free(fresh);
            return h;
        }
        if (h) {
            i = (i + 1) & (ILAN_HISTORY_SLOTS - 1);
            probes++;
            continue;
        }
        if (!fresh) {
            if (atomic_load_explicit(&history_used, memory_order_relaxed) >=
                ILAN_HISTORY_SLOTS / 4 * 3)
                return NULL;
            if (!(fresh = history_entry_new(fn, n, nthreads, ngroups)))
                return NULL;
        }
        struct taskloop_hist *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&history[i], &expected, fresh,
                                                    memory_order_acq_rel, memory_order_acquire)) {
            atomic_fetch_add_explicit(&history_used, 1, memory_order_relaxed);
            return fresh;
        }
        /* Another thread published at slot i first: look at it again. */
    }
    if (fresh)
        history_entry_free(fresh);
    return NULL;
}

const char *ilan_history_symbol(struct taskloop_hist *h)
{
    if (!h->symbol_done) {
        unsigned long offset;
        if (!os_symbol_name((const void *)(uintptr_t)h->fn, h->symbol, sizeof h->symbol,
                            h->module, sizeof h->module, &offset))
            h->symbol[0] = '\0';
        h->module_offset = offset;
        h->symbol_done = true;
    }
    return h->symbol;
}

