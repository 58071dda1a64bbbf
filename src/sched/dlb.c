/* dlb.c — the load-balancing strategies' names (the request cell's rules are inline in dlb.h). */
#include "sched/dlb.h"

const char *const dlb_strategy_names[DLB_STRATEGIES] = {"ws", "na-ws", "na-rp"};
