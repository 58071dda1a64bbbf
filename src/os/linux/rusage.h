/* rusage.h — the calling thread's voluntary and involuntary context switches, from getrusage(RUSAGE_THREAD). */
#ifndef ILAN_OS_RUSAGE_H
#define ILAN_OS_RUSAGE_H

#include <stdbool.h>
#include <stdint.h>

/* A thread's context switches since it started, split by cause. */
struct os_switches {
    uint64_t voluntary;   /* it gave up its CPU: blocked or slept (ru_nvcsw) */
    uint64_t involuntary; /* the kernel took its CPU away: preempted (ru_nivcsw) */
};

/* Reads the calling thread's counts into *s (one system call; only the
 * thread itself can read them). False, with *s zeroed, when refused. */
bool os_thread_switches(struct os_switches *s);

#endif
