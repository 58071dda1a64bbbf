/* bubble.c — the Cache and Memory bubble schedulers' decisions: a home domain per nested team, its threads' cores, and where its memory goes. Pure. */
#include "sched/bubble.h"

/* The domain with free cores nearest to home (by number distance, the
 * lower on a tie), or -1 when every domain is full. */
static int nearest_free(const struct bubble_machine *m, const unsigned *used, int home)
{
    for (int d = 0; d < (int)m->ndomains; d++) {
        int lo = home - d, hi = home + d;
        if (lo >= 0 && used[lo] < m->ncores[lo])
            return lo;
        if (hi < (int)m->ndomains && used[hi] < m->ncores[hi])
            return hi;
    }
    return -1;
}

bool bubble_place(enum bubble_sched s, const struct bubble_machine *m, unsigned nb,
                  const struct bubble_in *in, struct bubble_out *out, int *thread_domain,
                  unsigned *thread_core)
{
    if (nb > BUBBLE_MAX || m->ndomains == 0 || m->ndomains > BUBBLE_MAX_DOMAINS)
        return false;
    unsigned order[BUBBLE_MAX], first = 0;
    for (unsigned b = 0; b < nb; b++) {
        if (in[b].threads == 0)
            return false;
        out[b].first = first;
        first += in[b].threads;
        /* Insertion sort: more threads first, then the lower key, then the lower index. */
        unsigned pos = b;
        while (pos > 0) {
            const struct bubble_in *o = &in[order[pos - 1]];
            if (o->threads > in[b].threads || (o->threads == in[b].threads && o->key <= in[b].key))
                break;
            order[pos] = order[pos - 1];
            pos--;
        }
        order[pos] = b;
    }
    unsigned used[BUBBLE_MAX_DOMAINS] = {0}; /* threads placed on each domain */
    for (unsigned i = 0; i < nb; i++) {
        unsigned b = order[i];
        int home = -1;
        if (s == BUBBLE_MEMORY && in[b].pref >= 0 && in[b].pref < (int)m->ndomains)
            home = in[b].pref;
        bool chosen = home >= 0;
        for (unsigned d = 0; !chosen && d < m->ndomains; d++) /* the most free cores */
            if (used[d] < m->ncores[d] &&
                (home < 0 || m->ncores[d] - used[d] > m->ncores[home] - used[home]))
                home = (int)d;
        chosen = home >= 0;
        for (unsigned d = 0; !chosen && d < m->ndomains; d++) /* all full: least oversubscribed */
            if (home < 0 || used[d] * m->ncores[home] < used[home] * m->ncores[d])
                home = (int)d;
        out[b].home = home;
        out[b].spilled = 0;
        for (unsigned t = 0; t < in[b].threads; t++) {
            int d = used[home] < m->ncores[home] ? home : nearest_free(m, used, home);
            if (d < 0)
                d = home;
            out[b].spilled += d != home;
            thread_domain[out[b].first + t] = d;
            thread_core[out[b].first + t] = used[d] % m->ncores[d];
            used[d]++;
        }
    }
    return true;
}

void bubble_mem_domains(enum bubble_sched s, const struct bubble_machine *m,
                        const struct bubble_out *b, unsigned threads, const int *thread_domain,
                        struct mem_domains *out)
{
    out->n = 0;
    unsigned per[BUBBLE_MAX_DOMAINS] = {0};
    if (s == BUBBLE_MEMORY)
        for (unsigned t = 0; t < threads; t++)
            per[thread_domain[b->first + t]]++;
    else
        per[b->home] = 1;
    /* Domains in increasing node order (domain numbers follow the model's). */
    for (unsigned d = 0; d < m->ndomains && out->n < MEM_PLAN_MAX_NODES; d++) {
        if (!per[d])
            continue;
        if (out->n && out->node[out->n - 1] == m->node[d]) { /* LLCs of one node */
            out->weight[out->n - 1] += per[d];
            continue;
        }
        out->node[out->n] = m->node[d];
        out->weight[out->n] = per[d];
        out->n++;
    }
}
