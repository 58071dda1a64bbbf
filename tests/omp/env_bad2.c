// env_bad2.c - more invalid forms: trailing junk, zero, negative, empty.
// ilan-test: threads=1
// ilan-test: env=OMP_NUM_THREADS=4x;OMP_SCHEDULE=;OMP_DYNAMIC=;OMP_MAX_ACTIVE_LEVELS=two;OMP_THREAD_LIMIT=-3;OMP_CANCELLATION=1;OMP_MAX_TASK_PRIORITY=high;OMP_WAIT_POLICY=;OMP_STACKSIZE=-1
#include "env_bad.c"
