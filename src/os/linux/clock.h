/* clock.h — the cheap clock for ILAN's timings: the invariant TSC scaled to nanoseconds where present, else CLOCK_MONOTONIC_RAW (vDSO). */
#ifndef ILAN_OS_CLOCK_H
#define ILAN_OS_CLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The TSC-to-nanoseconds conversion, fixed once it is calibrated. */
struct os_clock_scale {
    _Atomic bool ready;   /* tsc0, ns0, mult are set (release / acquire) */
    uint64_t tsc0;        /* TSC at the calibration's start */
    uint64_t ns0;         /* CLOCK_MONOTONIC_RAW then, ns */
    uint64_t mult;        /* ns per tick, fixed point with OS_CLOCK_SHIFT fraction bits */
};

/* Fraction bits of os_clock_scale.mult (ticks * mult >> SHIFT = ns). */
#define OS_CLOCK_SHIFT 24

extern struct os_clock_scale os_clock_scale;

/* CLOCK_MONOTONIC_RAW in nanoseconds (vDSO: no system call). */
uint64_t os_clock_raw_ns(void);

/* Whether the CPU says its TSC runs at a constant rate in every power
 * state, and so counts time (CPUID 0x80000007, EDX bit 8). */
bool os_clock_tsc_invariant(void);

/* Takes the calibration's first reading: once, at start-up, before any
 * other thread exists (construct/runtime.c). Without it os_clock_ns stays
 * on CLOCK_MONOTONIC_RAW. */
void os_clock_init(void);

/* The slow path of os_clock_ns: CLOCK_MONOTONIC_RAW, and the calibration
 * of the TSC once enough time has passed since the first reading. */
uint64_t os_clock_ns_slow(void);

/* Whether os_clock_ns reads the TSC (for the report), false until calibrated. */
bool os_clock_uses_tsc(void);

/*
 * Nanoseconds on a monotonic clock that costs no system call and, once
 * calibrated (about 20 ms after start-up, on a CPU with an invariant
 * TSC), no vDSO call either: one rdtsc and a multiply. Readings from
 * different threads are comparable (the invariant TSC is synchronized
 * across CPUs; before calibration both come from CLOCK_MONOTONIC_RAW).
 * For durations, not for the time of day.
 */
static inline uint64_t os_clock_ns(void)
{
#if defined(__x86_64__)
    if (atomic_load_explicit(&os_clock_scale.ready, memory_order_acquire)) {
        uint64_t tsc = __builtin_ia32_rdtsc();
        uint64_t d = tsc - os_clock_scale.tsc0;
        return os_clock_scale.ns0 + (uint64_t)(((unsigned __int128)d * os_clock_scale.mult) >>
                                               OS_CLOCK_SHIFT);
    }
#endif
    return os_clock_ns_slow();
}

#endif
