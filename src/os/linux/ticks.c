/* ticks.c — choosing the instrumentation clock and measuring its rate against CLOCK_MONOTONIC_RAW. */
#include "os/linux/ticks.h"

#include <stdatomic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

bool os_ticks_tsc;
static uint64_t start_ticks; /* os_ticks at os_ticks_init */
static uint64_t start_ns;    /* CLOCK_MONOTONIC_RAW then */
static _Atomic double rate;  /* ticks per ns once measured; 0 before */

static uint64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPUID leaf 0x80000007, EDX bit 8: the TSC runs at a constant rate in
 * every power state, and so counts time. */
static bool tsc_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000007u)
        return false;
    __cpuid(0x80000007u, a, b, c, d);
    return (d >> 8) & 1u;
#else
    return false;
#endif
}

void os_ticks_init(void)
{
    os_ticks_tsc = tsc_invariant();
    start_ns = raw_ns();
    start_ticks = os_ticks();
}

double os_ticks_per_ns(void)
{
    double r = atomic_load_explicit(&rate, memory_order_relaxed);
    if (r > 0)
        return r;
    if (!os_ticks_tsc)
        r = 1.0;
    else {
        uint64_t ns = raw_ns();
        /* A short run: stretch the measurement to a millisecond. */
        while (ns - start_ns < 1000000u)
            ns = raw_ns();
        r = (double)(os_ticks() - start_ticks) / (double)(ns - start_ns);
        if (!(r > 0))
            r = 1.0;
    }
    atomic_store_explicit(&rate, r, memory_order_relaxed);
    return r;
}

double os_ticks_since_start_ns(uint64_t t)
{
    return ((double)t - (double)start_ticks) / os_ticks_per_ns();
}

const char *os_ticks_source(void)
{
    return os_ticks_tsc ? "tsc" : "monotonic_raw";
}
