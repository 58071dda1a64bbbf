/* steal_pace.c — the gap between an idle thread's looks at other threads' deques, from what its steals brought. */
#include "sched/steal_pace.h"

void steal_pace_after_steal(struct steal_pace *p, uint64_t ran_ns, uint64_t worth_ns)
{
    if (ran_ns >= worth_ns)
        p->level = 0;
    else if (p->level < STEAL_PACE_MAX_LEVEL)
        p->level++;
}
