// env_bad3.c - zero / negative thread counts and a bad schedule modifier.
// ilan-test: threads=1
// ilan-test: env=OMP_NUM_THREADS=0;OMP_SCHEDULE=sometimes:dynamic,4;OMP_DYNAMIC=2;OMP_THREAD_LIMIT=0;OMP_STACKSIZE=12Q
#include "env_bad.c"
