/* perf.h — the calling thread's own OS counters through perf_event_open: context switches, CPU migrations, page faults, task clock, and cycles and instructions where the machine has them. */
#ifndef ILAN_OS_PERF_H
#define ILAN_OS_PERF_H

#include <stdbool.h>
#include <stdint.h>

/* The counters, in the order os_perf_read fills them. */
enum os_perf_counter {
    OS_PERF_CONTEXT_SWITCHES, /* times the thread left its CPU (voluntarily or not) */
    OS_PERF_CPU_MIGRATIONS,   /* times it resumed on another CPU */
    OS_PERF_MINOR_FAULTS,     /* page faults served without I/O */
    OS_PERF_MAJOR_FAULTS,     /* page faults that waited for I/O */
    OS_PERF_TASK_CLOCK_NS,    /* time it was on a CPU (ns) */
    OS_PERF_CYCLES,           /* CPU cycles (hardware; `all` only) */
    OS_PERF_INSTRUCTIONS,     /* instructions retired (hardware; `all` only) */
    OS_PERF_NCOUNTERS
};

/* One thread's open counters: two groups, each read with one read(2). */
struct os_perf {
    int sw_fd; /* leader of the software group (task clock first), or -1 */
    int hw_fd; /* leader of the hardware group (cycles, instructions), or -1 */
};

/* Opens the software counters of the calling thread and, when `hw`, the
 * hardware ones too. Returns 0, or the errno of the refusal of the software
 * group (nothing is open then: p->sw_fd == -1); a refused hardware group
 * only leaves p->hw_fd at -1. Each call costs a few system calls. */
int os_perf_open(struct os_perf *p, bool hw);

/* Reads the counters of p (any thread may, while p is open) into
 * out[OS_PERF_NCOUNTERS]; counters not open read as 0. One or two system
 * calls. False when the software group could not be read. */
bool os_perf_read(const struct os_perf *p, uint64_t out[OS_PERF_NCOUNTERS]);

/* Why perf_event_open refused with errno `err`, as a short phrase. */
const char *os_perf_refusal(int err);

#endif
