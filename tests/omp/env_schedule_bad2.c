// env_schedule_bad2.c - env_schedule_bad.c with OMP_SCHEDULE=monotonic:adaptive
// (adaptive hands out iterations out of order: it cannot be monotonic).
// ilan-test: threads=2 env=OMP_SCHEDULE=monotonic:adaptive
// ilan-test: expect-output: Invalid value for environment variable OMP_SCHEDULE: 'monotonic:adaptive'.*using the default
#include "env_schedule_bad.c"
