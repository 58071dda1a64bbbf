// loops_runtime_env9.c - loops_runtime.c with OMP_SCHEDULE=static_steal.
// ilan-test: env=OMP_SCHEDULE=static_steal
#include "loops_runtime.c"
