// nested_env.c - nested.c with OMP_MAX_ACTIVE_LEVELS=3 set in the environment.
// ilan-test: env=OMP_MAX_ACTIVE_LEVELS=3
#include "nested.c"
