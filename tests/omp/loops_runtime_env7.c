// loops_runtime_env7.c - loops_runtime.c with OMP_SCHEDULE=af,2.
// ilan-test: env=OMP_SCHEDULE=af,2
#include "loops_runtime.c"
