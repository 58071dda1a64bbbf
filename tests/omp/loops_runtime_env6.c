// loops_runtime_env6.c - loops_runtime.c with OMP_SCHEDULE=fac2.
// ilan-test: env=OMP_SCHEDULE=fac2
#include "loops_runtime.c"
