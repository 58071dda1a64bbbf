// loops_runtime_env5.c - loops_runtime.c with OMP_SCHEDULE=adaptive,4.
// ilan-test: env=OMP_SCHEDULE=adaptive,4
#include "loops_runtime.c"
