/* time.c — omp_get_wtime and omp_get_wtick (C and Fortran). */
#include "abi/export.h"
#include "os/linux/time.h"

/* Seconds on the monotonic clock: elapsed wall time between two calls,
 * comparable across threads. */
ILAN_EXPORT double omp_get_wtime(void)
{
    return (double)os_now_ns() * 1e-9;
}

ILAN_EXPORT double omp_get_wtick(void)
{
    return os_clock_tick();
}

ILAN_EXPORT double omp_get_wtime_(void)
{
    return omp_get_wtime();
}

ILAN_EXPORT double omp_get_wtick_(void)
{
    return omp_get_wtick();
}
