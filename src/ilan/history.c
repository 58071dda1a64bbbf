/* history.c — what ILAN remembers per taskloop identity (outlined function, iterations, team size): a hash table with a least-recently-used list, bounded by ILAN_HISTORY_MAX. */
#include "ilan/history.h"

#include <stdint.h>
#include <stdlib.h>
#include "base/tunables.h"
#include "config/env.h"
#include "os/linux/symbols.h"

/* Buckets of the hash (a power of two); chains grow past it, which only
 * matters with more than a few thousand identities held. */
#define HISTORY_BUCKETS 4096u

/* One lock guards the buckets, the LRU list, the count and every entry's
 * links and `users`: taken once per taskloop execution to find the entry
 * and once to let it go, never per task. */
static mutex_t history_lock;
static struct taskloop_hist *buckets[HISTORY_BUCKETS];
static struct lru_list lru; /* the entries, most recently used first (history_lock) */
static unsigned history_used;          /* entries held */
static unsigned long history_dropped;  /* entries forgotten */

static unsigned history_hash(void (*fn)(void *), iter_ull n, unsigned nthreads)
{
    uint64_t h = (uint64_t)(uintptr_t)fn * 0x9e3779b97f4a7c15ull;
    h ^= (n + nthreads * 0x100000001b3ull) * 0xff51afd7ed558ccdull;
    return (unsigned)(h >> 40) & (HISTORY_BUCKETS - 1);
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

/* A new entry for an identity, not yet linked; NULL when out of memory. */
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
    h->mold.min_explore = config.explore_min_us * 1e-6;
    return h;
}

/* Unlinks h from its bucket. */
static void bucket_unlink(struct taskloop_hist *h)
{
    struct taskloop_hist **p = &buckets[history_hash(h->fn, h->iterations, h->nthreads)];
    while (*p != h)
        p = &(*p)->hash_next;
    *p = h->hash_next;
}

/* Forgets the least recently used entry that no execution holds; false
 * when every entry is held. */
static bool forget_one(void)
{
    for (struct lru_link *l = lru.tail; l; l = l->prev) {
        struct taskloop_hist *h = LRU_ENTRY(l, struct taskloop_hist, lru);
        if (h->users)
            continue;
        lru_unlink(&lru, l);
        bucket_unlink(h);
        history_used--;
        history_dropped++;
        history_entry_free(h);
        return true;
    }
    return false;
}

struct taskloop_hist *ilan_history_get(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                       unsigned ngroups)
{
    unsigned b = history_hash(fn, n, nthreads);
    mutex_lock(&history_lock);
    struct taskloop_hist *h = buckets[b];
    while (h && !history_matches(h, fn, n, nthreads))
        h = h->hash_next;
    if (h) {
        if (&h->lru != lru.head) {
            lru_unlink(&lru, &h->lru);
            lru_push_front(&lru, &h->lru);
        }
        h->users++;
        mutex_unlock(&history_lock);
        return h;
    }
    if (history_used >= config.history_max && !forget_one()) {
        mutex_unlock(&history_lock);
        return NULL;
    }
    /* Made under the lock: a new identity is rare next to the lookups. */
    h = history_entry_new(fn, n, nthreads, ngroups);
    if (h) {
        h->hash_next = buckets[b];
        buckets[b] = h;
        lru_push_front(&lru, &h->lru);
        history_used++;
        h->users = 1;
    }
    mutex_unlock(&history_lock);
    return h;
}

void ilan_history_release(struct taskloop_hist *h)
{
    mutex_lock(&history_lock);
    h->users--;
    mutex_unlock(&history_lock);
}

void ilan_history_each(void (*visit)(struct taskloop_hist *h, void *arg), void *arg)
{
    mutex_lock(&history_lock);
    for (struct taskloop_hist *h = LRU_ENTRY(lru.head, struct taskloop_hist, lru); h;
         h = LRU_ENTRY(h->lru.next, struct taskloop_hist, lru))
        visit(h, arg);
    mutex_unlock(&history_lock);
}

unsigned ilan_history_count(void)
{
    mutex_lock(&history_lock);
    unsigned n = history_used;
    mutex_unlock(&history_lock);
    return n;
}

unsigned long ilan_history_forgotten(void)
{
    mutex_lock(&history_lock);
    unsigned long n = history_dropped;
    mutex_unlock(&history_lock);
    return n;
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
