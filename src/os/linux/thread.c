/* thread.c — OS threads, CPU sets and yielding on Linux. */
#include "os/linux/thread.h"

#include <pthread.h>
#include <sched.h>

int os_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, size_t stack_bytes)
{
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc)
        return rc;
    if (stack_bytes)
        rc = pthread_attr_setstacksize(&attr, stack_bytes);
    if (!rc)
        rc = pthread_create(thread, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

void os_thread_join(pthread_t thread)
{
    pthread_join(thread, NULL);
}

unsigned os_cpus_allowed(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? (unsigned)n : 1;
}

void os_yield(void)
{
    sched_yield();
}
