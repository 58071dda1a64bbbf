/* time.h — monotonic clock readings for omp_get_wtime and instrumentation. */
#ifndef ILAN_OS_TIME_H
#define ILAN_OS_TIME_H

#include <stdint.h>
#include <time.h>

/* A clock reading in nanoseconds. */
static inline uint64_t os_timespec_ns(const struct timespec *ts)
{
    return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

/* Nanoseconds on CLOCK_MONOTONIC (vDSO: no system call). */
static inline uint64_t os_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return os_timespec_ns(&ts);
}

/* CPU time all threads of the process have used (ns; a system call that
 * sums over the threads, so not for every wait). 0 when refused. */
static inline uint64_t os_process_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return os_timespec_ns(&ts);
}

/* Sleeps for about ns nanoseconds (a debug build's injected delays). */
static inline void os_sleep_ns(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    nanosleep(&ts, NULL);
}

/* Resolution of CLOCK_MONOTONIC in seconds. */
static inline double os_clock_tick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
