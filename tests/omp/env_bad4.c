// env_bad4.c - negative thread count.
// ilan-test: threads=1
// ilan-test: env=OMP_NUM_THREADS=-4;OMP_SCHEDULE=dynamic,,3;OMP_PROC_BIND=;OMP_DISPLAY_ENV=loud
#include "env_bad.c"
