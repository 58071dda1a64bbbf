/* steal.c — the victim-order policies of work stealing (pure functions). */
#include "sched/steal.h"

#include <ctype.h>
#include <strings.h>

bool steal_parse_policy(const char *text, enum steal_policy *out)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t n = 0;
    while (text[n] && !isspace((unsigned char)text[n]))
        n++;
    for (const char *p = text + n; *p; p++)
        if (!isspace((unsigned char)*p))
            return false;
    if (n == 6 && strncasecmp(text, "random", 6) == 0) {
        *out = STEAL_RANDOM;
        return true;
    }
    return false;
}

uint64_t steal_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

uint64_t steal_seed(unsigned self)
{
    /* splitmix64 of the id: distinct, well-mixed, never zero in practice. */
    uint64_t z = (uint64_t)self + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

unsigned steal_next_victim(enum steal_policy policy, unsigned self, unsigned nthreads,
                           unsigned last_victim, uint64_t *rng)
{
    (void)policy; /* one policy so far */
    if (last_victim != STEAL_NO_VICTIM && last_victim != self && last_victim < nthreads)
        return last_victim;
    /* Uniform over the nthreads - 1 others: draw in [0, n-1) and skip self. */
    unsigned v = (unsigned)((steal_rand(rng) >> 32) % (nthreads - 1));
    return v >= self ? v + 1 : v;
}

unsigned steal_victim_near_first(const struct loop_victims *v, unsigned self, double plocal,
                                 unsigned last_victim, unsigned *far, uint64_t *rng)
{
    /* The top 53 bits as a uniform double in [0, 1). */
    double u = (double)(steal_rand(rng) >> 11) * (1.0 / 9007199254740992.0);
    /* its own group when drawn so, or when there is no other */
    bool local = v->seg_end[0] > 0 && (u < plocal || v->nseg < 2);
    if (last_victim != STEAL_NO_VICTIM && last_victim != self && last_victim <= v->n &&
        (v->group_of[last_victim] == v->group_of[self]) == local)
        return last_victim;
    unsigned seg = local ? 0 : 1 + (*far)++ % (v->nseg - 1);
    unsigned lo = seg ? v->seg_end[seg - 1] : 0, len = v->seg_end[seg] - lo;
    return v->order[lo + (unsigned)((steal_rand(rng) >> 32) % len)];
}

unsigned steal_tries(unsigned nthreads, bool full, unsigned per_thread, unsigned cap)
{
    if (full)
        return nthreads - 1;
    uint64_t tries = (uint64_t)per_thread * nthreads;
    return tries < cap ? (unsigned)tries : cap;
}
