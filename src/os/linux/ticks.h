/* ticks.h — the cheap clock of instrumentation: the TSC where it is invariant, else CLOCK_MONOTONIC_RAW; a rate measured over the run turns ticks into seconds. */
#ifndef ILAN_OS_TICKS_H
#define ILAN_OS_TICKS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Whether os_ticks reads the TSC (set once by os_ticks_init, before any
 * other thread exists; read-only afterwards). */
extern bool os_ticks_tsc;

/* Now, in ticks: TSC cycles (about 10-20 ns, no system call) when the TSC
 * is invariant, else nanoseconds of CLOCK_MONOTONIC_RAW (vDSO). Only
 * differences and os_ticks_to_ns conversions are meaningful. */
static inline uint64_t os_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_expect(os_ticks_tsc, 1))
        return __builtin_ia32_rdtsc();
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Chooses the clock (the TSC when CPUID says it is invariant) and takes the
 * first reading of the rate measurement. Once, at start-up. */
void os_ticks_init(void);

/* Ticks per nanosecond, measured from os_ticks_init to the first call
 * (then fixed): at least a millisecond apart, waiting if need be. */
double os_ticks_per_ns(void);

/* The ticks value t in nanoseconds since os_ticks_init. */
double os_ticks_since_start_ns(uint64_t t);

/* Which clock os_ticks reads, for reports: "tsc" or "monotonic_raw". */
const char *os_ticks_source(void);

#endif
