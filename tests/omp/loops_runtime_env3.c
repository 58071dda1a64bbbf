// loops_runtime_env3.c - loops_runtime.c with OMP_SCHEDULE=static,5.
// ilan-test: env=OMP_SCHEDULE=static,5
#include "loops_runtime.c"
