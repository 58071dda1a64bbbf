/* barrier_tree.c — the shape of a team's tree barrier from its size, fan-in and locality groups (pure arithmetic). */
#include "sched/barrier_tree.h"

#include <stdlib.h>

/* The sort key of member m at one level: its group, with unknown groups
 * made unique (a group of one). */
static long group_of(const int *key, unsigned m)
{
    return key[m] >= 0 ? (long)key[m] : -1l - (long)m;
}

/* qsort_r's comparison: by group, then by id. */
static int by_group(const void *a, const void *b, void *key)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    long gx = group_of(key, x), gy = group_of(key, y);
    if (gx != gy)
        return gx < gy ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* qsort's comparison of thread ids. */
static int by_id(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Arranges members[0..cnt-1] (leader first, then id order) as a
 * fanin-ary heap under members[0]. */
static void heap_link(const unsigned *members, unsigned cnt, unsigned fanin, unsigned *parent)
{
    for (unsigned p = 1; p < cnt; p++)
        parent[members[p]] = members[(p - 1) / fanin];
}

void btree_build(unsigned n, unsigned fanin, const int *const key[BTREE_LEVELS], unsigned *parent,
                 unsigned *scratch)
{
    if (fanin < BTREE_FANIN_MIN)
        fanin = BTREE_FANIN_MIN;
    if (fanin > BTREE_FANIN_MAX)
        fanin = BTREE_FANIN_MAX;
    unsigned *cur = scratch, *leaders = scratch + n;
    unsigned cnt = n;
    for (unsigned i = 0; i < n; i++) {
        cur[i] = i;
        parent[i] = BTREE_NO_PARENT;
    }
    for (unsigned l = 0; l < BTREE_LEVELS; l++) {
        if (!key[l])
            continue;
        /* Groups become runs, each in id order: its leader first. */
        qsort_r(cur, cnt, sizeof *cur, by_group, (void *)key[l]);
        unsigned nl = 0;
        for (unsigned s = 0; s < cnt;) {
            unsigned e = s + 1;
            while (e < cnt && group_of(key[l], cur[e]) == group_of(key[l], cur[s]))
                e++;
            heap_link(cur + s, e - s, fanin, parent);
            leaders[nl++] = cur[s];
            s = e;
        }
        /* The leaders, in id order, are the next level's members. */
        qsort(leaders, nl, sizeof *leaders, by_id);
        for (unsigned i = 0; i < nl; i++)
            cur[i] = leaders[i];
        cnt = nl;
    }
    heap_link(cur, cnt, fanin, parent);
}

void btree_children(unsigned n, const unsigned *parent, unsigned *first, unsigned *child)
{
    for (unsigned i = 0; i <= n; i++)
        first[i] = 0;
    for (unsigned i = 0; i < n; i++)
        if (parent[i] != BTREE_NO_PARENT)
            first[parent[i] + 1]++;
    for (unsigned i = 0; i < n; i++)
        first[i + 1] += first[i];
    /* Fill in id order: first[p] walks forward, then is restored. */
    for (unsigned i = 0; i < n; i++)
        if (parent[i] != BTREE_NO_PARENT)
            child[first[parent[i]]++] = i;
    for (unsigned i = n; i > 0; i--)
        first[i] = first[i - 1];
    first[0] = 0;
}

unsigned btree_depth(const unsigned *parent, unsigned i)
{
    unsigned d = 0;
    while (parent[i] != BTREE_NO_PARENT) {
        i = parent[i];
        d++;
    }
    return d;
}
