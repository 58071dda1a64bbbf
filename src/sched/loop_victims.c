/* loop_victims.c — a thief's victim order: its own group, then the other groups nearest first (pure). */
#include "sched/loop_victims.h"

#include <stdbool.h>

void loop_victims_build(unsigned self, unsigned nthreads, const unsigned *slot_group,
                        unsigned ngroups, const int *dist, enum victim_shape shape,
                        struct loop_victims *out)
{
    out->n = nthreads > 0 ? nthreads - 1 : 0;
    out->nseg = 0;
    for (unsigned t = 0; t < nthreads; t++)
        out->group_of[t] = slot_group && ngroups > 1 ? slot_group[t] : 0;
    if (out->n == 0)
        return;
    if (!slot_group || ngroups <= 1 || shape == VICTIMS_FLAT) {
        unsigned k = 0;
        for (unsigned t = 0; t < nthreads; t++)
            if (t != self)
                out->order[k++] = t;
        out->seg_end[0] = k;
        out->nseg = 1;
        return;
    }
    unsigned mine = slot_group[self];
    unsigned k = 0;
    /* Groups in visiting order: own group, then by (distance, number).
     * Selection by repeated minimum: ngroups is small (nodes, caches). */
    unsigned done_mask_words = (ngroups + 63) / 64;
    uint64_t done[done_mask_words ? done_mask_words : 1];
    for (unsigned w = 0; w < done_mask_words; w++)
        done[w] = 0;
    unsigned g = mine;
    for (unsigned visited = 0; visited < ngroups; visited++) {
        done[g / 64] |= (uint64_t)1 << (g % 64);
        for (unsigned t = 0; t < nthreads; t++)
            if (t != self && slot_group[t] == g)
                out->order[k++] = t;
        /* The nearest group not visited yet. */
        int best_d = 0;
        unsigned best = ngroups;
        for (unsigned h = 0; h < ngroups; h++) {
            if (done[h / 64] >> (h % 64) & 1)
                continue;
            int d = dist ? dist[mine * ngroups + h] : 0;
            if (best == ngroups || d < best_d) {
                best = h;
                best_d = d;
            }
        }
        int d = dist ? dist[mine * ngroups + g] : 0;
        bool closes = visited == 0 || best == ngroups || shape == VICTIMS_BY_GROUP || best_d != d;
        if (closes && (visited == 0 || k > out->seg_end[out->nseg - 1]))
            out->seg_end[out->nseg++] = k;
        if (best == ngroups)
            break;
        g = best;
    }
}

unsigned loop_victim_segment(const struct loop_victims *v, unsigned i)
{
    unsigned s = 0;
    while (s + 1 < v->nseg && i >= v->seg_end[s])
        s++;
    return s;
}

unsigned loop_victim_at(const struct loop_victims *v, unsigned i, uint64_t rnd)
{
    unsigned s = loop_victim_segment(v, i);
    unsigned lo = s ? v->seg_end[s - 1] : 0, len = v->seg_end[s] - lo;
    if (len == 0)
        return v->order[i];
    /* Each segment gets its own rotation from a different slice of rnd. */
    unsigned rot = (unsigned)((rnd >> ((s * 13) % 48)) % len);
    unsigned j = i - lo + rot;
    return v->order[lo + (j >= len ? j - len : j)];
}
