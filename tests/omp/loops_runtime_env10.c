// loops_runtime_env10.c - loops_runtime.c with OMP_SCHEDULE=tss,3.
// ilan-test: env=OMP_SCHEDULE=tss,3
#include "loops_runtime.c"
