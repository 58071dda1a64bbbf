// loops_runtime_env8.c - loops_runtime.c with OMP_SCHEDULE=auto.
// ilan-test: env=OMP_SCHEDULE=auto
#include "loops_runtime.c"
