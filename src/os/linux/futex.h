/* futex.h — the Linux futex calls that every sleeping wait in ilan rests on. */
#ifndef ILAN_OS_FUTEX_H
#define ILAN_OS_FUTEX_H

#include <linux/futex.h>
#include <limits.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps while *word == expected (returns at once otherwise, or on a spurious
 * wake-up: callers re-check their condition). Process-private futex. */
static inline void os_futex_wait(_Atomic unsigned *word, unsigned expected)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/* os_futex_wait for at most `ns` nanoseconds. */
static inline void os_futex_wait_for(_Atomic unsigned *word, unsigned expected, unsigned long ns)
{
    struct timespec rel = {(time_t)(ns / 1000000000ul), (long)(ns % 1000000000ul)};
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, &rel, NULL, 0);
}

/* Wakes up to `count` threads sleeping on word; returns how many it woke
 * (0 on an error). */
static inline int os_futex_wake(_Atomic unsigned *word, int count)
{
    long woken = syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
    return woken > 0 ? (int)woken : 0;
}

static inline void os_futex_wake_all(_Atomic unsigned *word)
{
    (void)os_futex_wake(word, INT_MAX);
}

#endif
