/* test_start_tree.c — unit tests of the tree that starts a team's threads (sched/start_tree.c): every thread to start is started exactly once, by the master or by a thread started before it, at logarithmic depth. */
#include <stdio.h>
#include <string.h>
#include "sched/start_tree.h"
#include "unit.h"

#define MAXN 5001

static unsigned parent_of[MAXN]; /* who dispatches each thread */
static unsigned depth[MAXN];     /* dispatches between the master and it */
static unsigned times[MAXN];     /* how often it is dispatched */

/* Walks the tree from the master the way the team does (a thread only
 * dispatches once it was dispatched itself) and checks its shape. */
static void check_tree(unsigned first, unsigned n, unsigned fanout)
{
    memset(times, 0, sizeof times);
    unsigned order[MAXN], len = 0, maxdepth = 0;
    order[len++] = 0;
    depth[0] = 0;
    for (unsigned k = 0; k < len; k++) {
        unsigned id = order[k], lo;
        unsigned c = start_tree_children(id, first, n, fanout, &lo);
        CHECK(c <= (fanout ? fanout : 1));
        for (unsigned j = 0; j < c; j++) {
            unsigned child = lo + j;
            CHECK(child >= first && child < n && child != id);
            times[child]++;
            parent_of[child] = id;
            depth[child] = depth[id] + 1;
            if (depth[child] > maxdepth)
                maxdepth = depth[child];
            order[len++] = child;
        }
    }
    /* Threads 1..first-1 are running already: nobody dispatches them,
     * and they dispatch nobody. */
    for (unsigned id = 1; id < first && id < n; id++) {
        unsigned lo;
        CHECK(times[id] == 0);
        CHECK(start_tree_children(id, first, n, fanout, &lo) == 0);
    }
    for (unsigned id = first; id < n; id++)
        CHECK(times[id] == 1);
    /* Depth: at most ceil(log_fanout(m)) + 1 for m threads to start. */
    unsigned m = n > first ? n - first : 0, bound = 1;
    unsigned long long reach = 1;
    unsigned f = fanout > 1 ? fanout : 2;
    while (reach * f < m + 1ull) {
        reach *= f;
        bound++;
    }
    if (fanout > 1)
        CHECK(maxdepth <= bound + 1);
}

int main(void)
{
    unsigned lo = 7;
    /* Nothing to start. */
    CHECK(start_tree_children(0, 1, 1, 4, &lo) == 0);
    CHECK(start_tree_children(0, 5, 5, 4, &lo) == 0);
    /* The master of a new team of 3 with fan-out 4 starts both workers. */
    CHECK(start_tree_children(0, 1, 3, 4, &lo) == 2 && lo == 1);
    CHECK(start_tree_children(1, 1, 3, 4, &lo) == 0);
    /* Fan-out 2, threads 1..6: 0 -> 1,2; 1 -> 3,4; 2 -> 5,6. */
    CHECK(start_tree_children(0, 1, 7, 2, &lo) == 2 && lo == 1);
    CHECK(start_tree_children(1, 1, 7, 2, &lo) == 2 && lo == 3);
    CHECK(start_tree_children(2, 1, 7, 2, &lo) == 2 && lo == 5);
    CHECK(start_tree_children(3, 1, 7, 2, &lo) == 0);
    /* A hot team growing from 4 to 9: threads 1..3 stay, 4..8 start;
     * 0 -> 4,5; 4 -> 6,7; 5 -> 8. */
    CHECK(start_tree_children(0, 4, 9, 2, &lo) == 2 && lo == 4);
    CHECK(start_tree_children(2, 4, 9, 2, &lo) == 0);
    CHECK(start_tree_children(4, 4, 9, 2, &lo) == 2 && lo == 6);
    CHECK(start_tree_children(5, 4, 9, 2, &lo) == 1 && lo == 8);
    CHECK(start_tree_children(6, 4, 9, 2, &lo) == 0);
    /* Out of range ids dispatch nobody. */
    CHECK(start_tree_children(9, 4, 9, 2, &lo) == 0);
    CHECK(start_tree_children(0, 0, 9, 2, &lo) == 0);
    /* Fan-out 0 counts as 1: a chain. */
    CHECK(start_tree_children(0, 1, 4, 0, &lo) == 1 && lo == 1);
    CHECK(start_tree_children(1, 1, 4, 0, &lo) == 1 && lo == 2);

    unsigned fanouts[] = {0, 1, 2, 3, 4, 8, 64};
    unsigned sizes[] = {1, 2, 3, 4, 5, 9, 17, 64, 100, 1000, 5000};
    for (unsigned a = 0; a < sizeof fanouts / sizeof *fanouts; a++)
        for (unsigned b = 0; b < sizeof sizes / sizeof *sizes; b++) {
            unsigned n = sizes[b];
            if (fanouts[a] <= 1 && n > 100)
                continue; /* a chain of thousands proves nothing more */
            for (unsigned first = 1; first <= n; first += first < 4 ? 1 : n / 3 + 1)
                check_tree(first, n, fanouts[a]);
        }
    printf("start_tree: ok\n");
    return 0;
}
