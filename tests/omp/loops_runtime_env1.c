// loops_runtime_env1.c - loops_runtime.c with OMP_SCHEDULE=guided,3.
// ilan-test: env=OMP_SCHEDULE=guided,3
#include "loops_runtime.c"
