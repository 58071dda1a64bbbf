// loops_runtime_env4.c - loops_runtime.c with OMP_SCHEDULE=nonmonotonic:dynamic.
// ilan-test: env=OMP_SCHEDULE=nonmonotonic:dynamic
#include "loops_runtime.c"
