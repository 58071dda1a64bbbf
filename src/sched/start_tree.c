/* start_tree.c — the tree that starts a team's threads (sched/start_tree.h). */
#include "sched/start_tree.h"

unsigned start_tree_children(unsigned id, unsigned first, unsigned n, unsigned fanout,
                             unsigned *lo)
{
    *lo = 0;
    if (fanout == 0)
        fanout = 1;
    if (first < 1 || first >= n || (id != 0 && (id < first || id >= n)))
        return 0;
    unsigned long long m = n - first;                     /* positions 1..m */
    unsigned long long q = id == 0 ? 0 : id - first + 1u; /* id's position */
    unsigned long long c = q * fanout + 1;                /* its first child's position */
    if (c > m)
        return 0;
    unsigned long long last = c + fanout - 1 < m ? c + fanout - 1 : m;
    *lo = (unsigned)(c + first - 1);
    return (unsigned)(last - c + 1);
}
