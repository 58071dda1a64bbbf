// loops_runtime_env2.c - loops_runtime.c with OMP_SCHEDULE=monotonic:dynamic,2.
// ilan-test: env=OMP_SCHEDULE=monotonic:dynamic,2
#include "loops_runtime.c"
