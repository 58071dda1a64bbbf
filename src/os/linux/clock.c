/* clock.c — the TSC facts (invariant or not) and CLOCK_MONOTONIC_RAW, and the calibration of the invariant TSC against it for os_clock_ns. */
#include "os/linux/clock.h"

#include <stdatomic.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

struct os_clock_scale os_clock_scale;

/* Calibration window: long enough that clock_gettime's jitter (well under
 * a microsecond) makes the scale wrong by less than 1e-4. */
#define CALIBRATION_NS 20000000ull

/* The calibration's start, set by os_clock_init before any thread exists. */
static uint64_t start_ns;   /* CLOCK_MONOTONIC_RAW at init */
static uint64_t start_tsc;  /* TSC at init */
static bool tsc_usable;     /* the CPU has an invariant TSC */
static _Atomic int calibrating; /* one thread computes the scale */

uint64_t os_clock_raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool os_clock_tsc_invariant(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000007u)
        return false;
    __cpuid(0x80000007u, a, b, c, d);
    (void)a, (void)b, (void)c;
    return (d >> 8) & 1u;
#else
    return false;
#endif
}

void os_clock_init(void)
{
    tsc_usable = os_clock_tsc_invariant();
    start_ns = os_clock_raw_ns();
#if defined(__x86_64__)
    start_tsc = __builtin_ia32_rdtsc();
#endif
}

uint64_t os_clock_ns_slow(void)
{
    uint64_t now = os_clock_raw_ns();
#if defined(__x86_64__)
    if (!tsc_usable || now - start_ns < CALIBRATION_NS)
        return now;
    int expected = 0;
    if (!atomic_compare_exchange_strong_explicit(&calibrating, &expected, 1, memory_order_relaxed,
                                                 memory_order_relaxed))
        return now;
    uint64_t tsc = __builtin_ia32_rdtsc();
    uint64_t ns = os_clock_raw_ns();
    if (tsc <= start_tsc)
        return now; /* a TSC that does not move: keep the RAW clock (calibrating stays 1) */
    os_clock_scale.mult = (uint64_t)(((unsigned __int128)(ns - start_ns) << OS_CLOCK_SHIFT) /
                                     (tsc - start_tsc));
    /* Continue from the RAW clock's reading at this moment, so that the
     * clock does not jump at the switch. */
    os_clock_scale.tsc0 = tsc;
    os_clock_scale.ns0 = ns;
    atomic_store_explicit(&os_clock_scale.ready, true, memory_order_release);
    return ns;
#else
    return now;
#endif
}

bool os_clock_uses_tsc(void)
{
    return atomic_load_explicit(&os_clock_scale.ready, memory_order_acquire);
}
