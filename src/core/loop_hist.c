/* loop_hist.c — the table of worksharing-loop identities (schedule(auto)'s choices, ILAN_REPORT's loop counts) and its report sections. */
#include "core/loop_hist.h"

#include <stdint.h>
#include <stdlib.h>
#include "base/fatal.h"
#include "config/env.h"
#include "config/icv.h"
#include "config/parse.h"
#include "os/linux/symbols.h"

#define LOOP_HIST_BUCKETS 1024u

bool loop_hist_on;

static mutex_t table_lock = MUTEX_INIT;         /* guards the buckets, the LRU list, every
                                                   record's users and the counts below */
static struct loop_rec *buckets[LOOP_HIST_BUCKETS]; /* chains of records by identity hash */
static struct lru_list lru;                     /* the records, most recently used first */
static unsigned held;                           /* records in the table */
static unsigned long dropped;                   /* identities refused: every record was held */
static unsigned long forgotten;                 /* records forgotten to make room */

static unsigned bucket_of(const void *site, iter_ull n, unsigned nthreads)
{
    uint64_t h = (uint64_t)(uintptr_t)site * 0x9E3779B97F4A7C15ULL;
    h ^= n * 0xBF58476D1CE4E5B9ULL + nthreads;
    h ^= h >> 29;
    return (unsigned)(h % LOOP_HIST_BUCKETS);
}

/* Forgets the least recently used record no execution holds; false when
 * every record is held. */
static bool forget_one(void)
{
    for (struct lru_link *l = lru.tail; l; l = l->prev) {
        struct loop_rec *r = LRU_ENTRY(l, struct loop_rec, lru);
        if (r->users)
            continue;
        lru_unlink(&lru, l);
        struct loop_rec **p = &buckets[bucket_of(r->site, r->n, r->nthreads)];
        while (*p != r)
            p = &(*p)->next;
        *p = r->next;
        held--;
        forgotten++;
        free(r->split);
        free(r);
        return true;
    }
    return false;
}

struct loop_rec *loop_hist_get(const void *site, iter_ull n, unsigned nthreads)
{
    unsigned b = bucket_of(site, n, nthreads);
    mutex_lock(&table_lock);
    struct loop_rec *r = buckets[b];
    while (r && !(r->site == site && r->n == n && r->nthreads == nthreads))
        r = r->next;
    if (r) {
        lru_unlink(&lru, &r->lru);
    } else if (held >= config.history_max && !forget_one()) {
        dropped++;
    } else if ((r = calloc(1, sizeof *r)) != NULL) {
        r->site = site;
        r->n = n;
        r->nthreads = nthreads;
        r->next = buckets[b];
        buckets[b] = r;
        held++;
    }
    if (r) {
        lru_push_front(&lru, &r->lru);
        r->users++;
    }
    mutex_unlock(&table_lock);
    return r;
}

void loop_hist_release(struct loop_rec *r)
{
    mutex_lock(&table_lock);
    r->users--;
    mutex_unlock(&table_lock);
}

unsigned long loop_hist_dropped(void)
{
    return dropped;
}

unsigned long loop_hist_forgotten(void)
{
    return forgotten;
}

/* Calls fn on every record, table locked (at exit: no loop runs). */
static void each(void (*fn)(struct loop_rec *r, FILE *f, bool first), FILE *f)
{
    bool first = true;
    mutex_lock(&table_lock);
    for (unsigned b = 0; b < LOOP_HIST_BUCKETS; b++)
        for (struct loop_rec *r = buckets[b]; r; r = r->next) {
            fn(r, f, first);
            first = false;
        }
    mutex_unlock(&table_lock);
}

static void site_name(const struct loop_rec *r, char *buf, size_t size)
{
    char module[256];
    unsigned long off;
    if (!os_symbol_name(r->site, buf, size, module, sizeof module, &off))
        buf[0] = '\0';
}

static void json_one(struct loop_rec *r, FILE *f, bool first)
{
    char sym[128];
    site_name(r, sym, sizeof sym);
    mutex_lock(&r->lock);
    fprintf(f, "%s\n    {\"site\": \"%p\", \"symbol\": \"", first ? "" : ",", r->site);
    for (const char *p = sym; *p; p++) /* symbol names hold no quotes; keep it valid anyway */
        fputc(*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 ? '?' : *p, f);
    fprintf(f, "\", \"iterations\": %llu, \"threads\": %u, \"schedule\": \"%s\", "
               "\"calls\": %lu, \"iterations_run\": %llu, \"chunks\": %llu, "
               "\"steals_same_group\": %llu, \"steals_other_group\": %llu, \"last_s\": %.9g",
            (unsigned long long)r->n, r->nthreads,
            r->is_auto ? "auto" : parse_schedule_name(r->kind), r->calls, r->iterations,
            (unsigned long long)r->chunks, (unsigned long long)r->steals_local,
            (unsigned long long)r->steals_remote, r->last_ns * 1e-9);
    if (r->split_learnt) {
        fprintf(f, ", \"split_calls\": %lu, \"split\": [", r->split_calls);
        for (unsigned t = 0; t <= r->nthreads; t++)
            fprintf(f, "%s%llu", t ? ", " : "", (unsigned long long)r->split[t]);
        fputs("]", f);
    }
    if (r->is_auto) {
        const struct loop_auto *a = &r->sel;
        fprintf(f, ",\n     \"auto\": {\"state\": \"%s\", \"trials\": %u, \"choice\": \"%s\", "
                   "\"noise\": %.4f, \"runs\": {",
                a->trying ? "trial" : a->settled ? "settled" : "warm-up", a->trials,
                a->settled ? loop_cand_name((enum loop_cand)a->choice) : "adaptive", a->noise);
        for (unsigned c = 0; c < LOOP_NCAND; c++)
            fprintf(f, "%s\"%s\": %lu", c ? ", " : "", loop_cand_name((enum loop_cand)c),
                    r->kind_calls[c]);
        fputs("}, \"trial_s\": {", f);
        for (unsigned c = 0; c < LOOP_NCAND; c++) {
            fprintf(f, "%s\"%s\": [", c ? ", " : "", loop_cand_name((enum loop_cand)c));
            for (unsigned i = 0; i < a->n[c]; i++)
                fprintf(f, "%s%.9g", i ? ", " : "", a->t[c][i] * 1e-9);
            fputs("]", f);
        }
        fputs("}}", f);
    }
    fputs("}", f);
    mutex_unlock(&r->lock);
}

void loop_hist_json(FILE *f)
{
    fputs("  \"loops\": [", f);
    each(json_one, f);
    fprintf(f, "\n  ],\n  \"loops_dropped\": %lu,\n  \"loops_forgotten\": %lu\n", dropped,
            forgotten);
}

static void summary_one(struct loop_rec *r, FILE *f, bool first)
{
    (void)first;
    char sym[128];
    site_name(r, sym, sizeof sym);
    mutex_lock(&r->lock);
    fprintf(f, "  loop %s (%p), %llu iterations, %u threads: %s, %lu calls, %llu chunks, "
               "steals %llu same group / %llu other",
            sym[0] ? sym : "?", r->site, (unsigned long long)r->n, r->nthreads,
            r->is_auto ? "auto" : parse_schedule_name(r->kind), r->calls,
            (unsigned long long)r->chunks, (unsigned long long)r->steals_local,
            (unsigned long long)r->steals_remote);
    if (r->is_auto)
        fprintf(f, "; auto %s %s",
                r->sel.trying ? "trying" : r->sel.settled ? "chose" : "warming up with",
                r->sel.trying ? loop_cand_name((enum loop_cand)r->sel.cand)
                : r->sel.settled ? loop_cand_name((enum loop_cand)r->sel.choice) : "adaptive");
    fputc('\n', f);
    mutex_unlock(&r->lock);
}

void loop_hist_summary(FILE *f)
{
    each(summary_one, f);
    if (dropped || forgotten)
        fprintf(f, "  (%lu loop identities not recorded, %lu forgotten, ILAN_HISTORY_MAX=%u)\n",
                dropped, forgotten, config.history_max);
}
