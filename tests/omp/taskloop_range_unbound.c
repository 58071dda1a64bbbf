// taskloop_range_unbound.c - taskloop_range.c with unbound threads on a
// what-if machine of two one-core nodes, where the groups are the nodes the
// threads last ran on and every runner works first on the range of the node
// of its current CPU: the per-task semantics hold all the same.
// ilan-test: threads=2,3,8 tsan modes=ilan,numa,ws
// ilan-test: env=OMP_CANCELLATION=true;OMP_MAX_TASK_PRIORITY=10;HWLOC_SYNTHETIC=numa:2%20core:1%20pu:1
#include "taskloop_range.c"
