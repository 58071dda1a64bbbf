/* bubble.c — nested teams as bubbles (ILAN_BUBBLES): the bubbles known, their placement on the machine's domains (decided by sched/bubble.c), their threads' places, their team memory moved with them, and the report. */
#include "core/bubble.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/env.h"
#include "core/mutex.h"
#include "core/team_desc.h"
#include "mem/move.h"
#include "mem/record.h"
#include "sched/bubble.h"
#include "topo/bind.h"
#include "topo/places.h"
#include "topo/topo.h"

/* Threads of a bubble the report lists one by one. */
#define BUBBLE_REPORT_THREADS 16

/* One bubble: a nested team that has run, as of its latest region. */
struct bubble_rec {
    const struct team *team;  /* the nested team (kept for reuse by its master: an identity) */
    unsigned threads;         /* its latest size */
    unsigned key;             /* its master's thread number in the parent team */
    int pref;                 /* domain holding most of its team memory at its latest
                                 placement (memory scheduler); -1: none */
    int home;                 /* domain of its latest placement; -1: never placed */
    unsigned spilled;         /* threads of it placed outside home, latest placement */
    unsigned placements;      /* regions it was placed for */
    unsigned moved_threads;   /* thread moves to another place, over all placements */
    unsigned long moved_pages; /* pages of its team memory moved with it, in all */
    int place[BUBBLE_REPORT_THREADS]; /* latest place of its first threads (report) */
    int node[BUBBLE_REPORT_THREADS];  /* and their nodes */
    struct mem_domains mem;   /* where its team memory goes now */
};

/* The bubbles known, in order of first region; guarded by bubble_lock. */
static mutex_t bubble_lock = MUTEX_INIT;
static struct bubble_rec bubble_recs[BUBBLE_MAX];
static unsigned bubble_count;
static bool bubble_full_said; /* warned that past BUBBLE_MAX teams are not placed */

/* The level bubbles go to, built on first use under bubble_lock: NUMA
 * nodes when the model has several, else last-level caches; only cores
 * with a place count. */
static struct bubble_machine bubble_m;
static bool bubble_level_llc;                      /* domains are LLCs, not nodes */
static int *bubble_dom_places[BUBBLE_MAX_DOMAINS]; /* [ncores[d]] place of each core of domain
                                                      d, in model order */
static int bubble_dom_of_node[BUBBLE_MAX_DOMAINS]; /* NUMA level: node -> domain, -1: none */
static bool bubble_ready;                          /* the above are built */

/* The model core of place p's first CPU, -1 when unknown. */
static int place_core(unsigned p)
{
    const struct place_list *l = &places.os;
    return l->first[p] < l->first[p + 1] ? topo_core_of_cpu(l->cpus[l->first[p]]) : -1;
}

/* Builds the machine bubbles are placed on. bubble_lock held. */
static void bubble_machine_init(void)
{
    bubble_ready = true;
    bubble_level_llc = topo.nnodes < 2 && topo.nllcs > 1;
    int *core_place = malloc((size_t)topo.ncores * sizeof *core_place);
    if (!core_place)
        ilan_fatal("out of memory placing bubbles");
    for (int c = 0; c < topo.ncores; c++)
        core_place[c] = -1;
    for (unsigned p = places.os.n; p-- > 0;) { /* the first place of each core wins */
        int c = place_core(p);
        if (c >= 0)
            core_place[c] = (int)p;
    }
    for (int k = 0; k < BUBBLE_MAX_DOMAINS; k++)
        bubble_dom_of_node[k] = -1;
    int ids = bubble_level_llc ? topo.nllcs : topo.nnodes;
    for (int id = 0; id < ids && bubble_m.ndomains < BUBBLE_MAX_DOMAINS; id++) {
        unsigned d = bubble_m.ndomains, cores = 0;
        int *list = malloc((size_t)topo.ncores * sizeof *list);
        if (!list)
            ilan_fatal("out of memory placing bubbles");
        for (int c = 0; c < topo.ncores; c++)
            if ((bubble_level_llc ? topo.core_llc[c] : topo.core_node[c]) == id &&
                core_place[c] >= 0) {
                list[cores++] = core_place[c];
                bubble_m.node[d] = topo.core_node[c];
            }
        if (!cores) { /* no place on this domain: bubbles never go there */
            free(list);
            continue;
        }
        if (!bubble_level_llc && id < BUBBLE_MAX_DOMAINS)
            bubble_dom_of_node[id] = (int)d;
        bubble_dom_places[d] = list;
        bubble_m.ncores[d] = cores;
        bubble_m.ndomains++;
    }
    free(core_place);
}

/* The record of team t, made when new; NULL past BUBBLE_MAX. bubble_lock held. */
static struct bubble_rec *bubble_of(const struct team *t, unsigned key)
{
    for (unsigned b = 0; b < bubble_count; b++)
        if (bubble_recs[b].team == t)
            return &bubble_recs[b];
    if (bubble_count == BUBBLE_MAX) {
        if (!bubble_full_said)
            ilan_warn("ILAN_BUBBLES: more than %d nested teams; the others are not placed",
                      BUBBLE_MAX);
        bubble_full_said = true;
        return NULL;
    }
    struct bubble_rec *r = &bubble_recs[bubble_count++];
    memset(r, 0, sizeof *r);
    r->team = t;
    r->key = key;
    r->home = -1;
    return r;
}

/* The domain holding most of team t's attached memory, -1: none. */
static int memory_pref(const struct team *t)
{
    if (bubble_level_llc)
        return -1; /* one node: memory does not tell caches apart */
    size_t per[BUBBLE_MAX_DOMAINS] = {0};
    mem_rec_owner_pages((struct mem_owner){t, MEM_OWNER_TEAM}, per, BUBBLE_MAX_DOMAINS);
    int best = -1;
    for (int n = 0; n < BUBBLE_MAX_DOMAINS; n++)
        if (per[n] && bubble_dom_of_node[n] >= 0 && (best < 0 || per[n] > per[best]))
            best = n;
    return best < 0 ? -1 : bubble_dom_of_node[best];
}

void bubble_team_begin(struct team *t, unsigned key)
{
    if (!config.bubbles || places.os.n == 0)
        return;
    static struct bubble_in in[BUBBLE_MAX];     /* guarded by bubble_lock */
    static struct bubble_out out[BUBBLE_MAX];
    static int dom[BUBBLE_MAX * 256];
    static unsigned core[BUBBLE_MAX * 256];
    int place_local[64], *place = t->nthreads <= 64 ? place_local : malloc(t->nthreads * sizeof *place);
    if (!place)
        ilan_fatal("out of memory placing a bubble of %u threads", t->nthreads);
    mutex_lock(&bubble_lock);
    if (!bubble_ready)
        bubble_machine_init();
    struct bubble_rec *me = bubble_m.ndomains ? bubble_of(t, key) : NULL;
    if (me) {
        me->threads = t->nthreads;
        if (config.bubbles == BUBBLE_MEMORY)
            me->pref = memory_pref(t);
    }
    bool placed = false;
    unsigned mine = me ? (unsigned)(me - bubble_recs) : 0;
    if (me && t->nthreads <= 256) { /* larger teams are not placed (the arrays above) */
        for (unsigned b = 0; b < bubble_count; b++)
            in[b] = (struct bubble_in){bubble_recs[b].threads > 256 ? 256 : bubble_recs[b].threads,
                                       bubble_recs[b].pref, bubble_recs[b].key};
        placed = bubble_place(config.bubbles, &bubble_m, bubble_count, in, out, dom, core);
    }
    if (placed) {
        const struct bubble_out *o = &out[mine];
        unsigned moved = 0;
        for (unsigned i = 0; i < t->nthreads; i++) {
            int d = dom[o->first + i];
            place[i] = bubble_dom_places[d][core[o->first + i]];
            moved += me->placements && i < BUBBLE_REPORT_THREADS && me->place[i] != place[i];
            if (i < BUBBLE_REPORT_THREADS) {
                me->place[i] = place[i];
                me->node[i] = bubble_m.node[d];
            }
        }
        me->home = o->home;
        me->spilled = o->spilled;
        me->placements++;
        me->moved_threads += moved;
        bubble_mem_domains(config.bubbles, &bubble_m, o, t->nthreads, dom, &me->mem);
    }
    struct mem_domains md = placed ? me->mem : (struct mem_domains){0};
    mutex_unlock(&bubble_lock);
    if (placed) {
        bind_team_set(&t->bind, t->nthreads, place);
        size_t pages = mem_follow_domains((struct mem_owner){t, MEM_OWNER_TEAM}, &md);
        if (pages) {
            mutex_lock(&bubble_lock);
            me->moved_pages += pages;
            mutex_unlock(&bubble_lock);
        }
    }
    if (place != place_local)
        free(place);
}

bool bubble_team_domains(const struct team *t, struct mem_domains *out)
{
    bool found = false;
    mutex_lock(&bubble_lock);
    for (unsigned b = 0; b < bubble_count && !found; b++)
        if (bubble_recs[b].team == t && bubble_recs[b].home >= 0) {
            *out = bubble_recs[b].mem;
            found = true;
        }
    mutex_unlock(&bubble_lock);
    return found;
}

void bubble_report_summary(FILE *f)
{
    mutex_lock(&bubble_lock);
    for (unsigned b = 0; b < bubble_count; b++) {
        const struct bubble_rec *r = &bubble_recs[b];
        if (r->home < 0)
            continue;
        fprintf(f, "  bubble of parent thread %u (%s): %u threads, home node %d, %u re-spread, "
                   "%u placements, %u thread moves, %lu pages moved; nodes",
                r->key, config.bubbles == BUBBLE_MEMORY ? "memory" : "cache", r->threads,
                bubble_m.node[r->home], r->spilled, r->placements, r->moved_threads, r->moved_pages);
        unsigned shown = r->threads < BUBBLE_REPORT_THREADS ? r->threads : BUBBLE_REPORT_THREADS;
        for (unsigned i = 0; i < shown; i++)
            fprintf(f, " %d", r->node[i]);
        fputs("; memory", f);
        for (unsigned j = 0; j < r->mem.n; j++)
            fprintf(f, " %d:%u", r->mem.node[j], r->mem.weight[j]);
        fputc('\n', f);
    }
    mutex_unlock(&bubble_lock);
}

void bubble_report_json(FILE *f)
{
    static const char *const names[] = {"off", "cache", "memory"};
    mutex_lock(&bubble_lock);
    fprintf(f, "  \"bubbles\": {\"scheduler\": \"%s\", \"level\": \"%s\", \"teams\": [",
            names[config.bubbles], bubble_level_llc ? "llc" : "numa");
    for (unsigned b = 0; b < bubble_count; b++) {
        const struct bubble_rec *r = &bubble_recs[b];
        fprintf(f, "%s\n    {\"parent_thread\": %u, \"threads\": %u, \"home\": %d, "
                   "\"home_node\": %d, \"spilled\": %u, \"placements\": %u, "
                   "\"moved_threads\": %u, \"moved_pages\": %lu, \"places\": [",
                b ? "," : "", r->key, r->threads, r->home,
                r->home >= 0 ? bubble_m.node[r->home] : -1, r->spilled, r->placements,
                r->moved_threads, r->moved_pages);
        unsigned shown = r->threads < BUBBLE_REPORT_THREADS ? r->threads : BUBBLE_REPORT_THREADS;
        for (unsigned i = 0; i < shown && r->home >= 0; i++)
            fprintf(f, "%s%d", i ? ", " : "", r->place[i]);
        fputs("], \"nodes\": [", f);
        for (unsigned i = 0; i < shown && r->home >= 0; i++)
            fprintf(f, "%s%d", i ? ", " : "", r->node[i]);
        fputs("], \"memory_nodes\": [", f);
        for (unsigned j = 0; j < r->mem.n && r->home >= 0; j++)
            fprintf(f, "%s{\"node\": %d, \"share\": %u}", j ? ", " : "", r->mem.node[j],
                    r->mem.weight[j]);
        fputs("]}", f);
    }
    fputs(bubble_count ? "\n  ]},\n" : "]},\n", f);
    mutex_unlock(&bubble_lock);
}

void bubble_team_forget(const struct team *t)
{
    if (!config.bubbles)
        return;
    mutex_lock(&bubble_lock);
    for (unsigned b = 0; b < bubble_count; b++)
        if (bubble_recs[b].team == t) {
            memmove(&bubble_recs[b], &bubble_recs[b + 1],
                    (bubble_count - b - 1) * sizeof bubble_recs[0]);
            bubble_count--;
            break;
        }
    mutex_unlock(&bubble_lock);
}
