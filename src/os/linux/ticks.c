/* ticks.c — choosing the instrumentation clock and measuring its rate against CLOCK_MONOTONIC_RAW. */
#include "os/linux/ticks.h"

#include <stdatomic.h>
#include "os/linux/clock.h"

bool os_ticks_tsc;
static uint64_t start_ticks; /* os_ticks at os_ticks_init */
static uint64_t start_ns;    /* CLOCK_MONOTONIC_RAW then */
static _Atomic double rate;  /* ticks per ns once measured; 0 before */

void os_ticks_init(void)
{
    os_ticks_tsc = os_clock_tsc_invariant();
    start_ns = os_clock_raw_ns();
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
        uint64_t ns = os_clock_raw_ns();
        /* A short run: stretch the measurement to a millisecond. */
        while (ns - start_ns < 1000000u)
            ns = os_clock_raw_ns();
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
