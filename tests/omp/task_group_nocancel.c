// task_group_nocancel.c - task_group.c without OMP_CANCELLATION: every
// `cancel taskgroup` is a no-op, every task runs, omp_get_cancellation() is 0.
// ilan-test: modes=ilan,numa,ws
#include "task_group.c"
