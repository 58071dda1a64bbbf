/* thread.c — OS threads, CPU sets and yielding on Linux. */
#include "os/linux/thread.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

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

static pthread_key_t exit_key;                 /* its destructor calls exit_fn */
static _Atomic(void (*)(void *)) exit_fn;      /* what os_thread_at_exit registered */
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static int exit_key_error;                     /* pthread_key_create's error, 0 if none */

static void exit_trampoline(void *arg)
{
    atomic_load_explicit(&exit_fn, memory_order_relaxed)(arg);
}

static void exit_key_create(void)
{
    exit_key_error = pthread_key_create(&exit_key, exit_trampoline);
}

int os_thread_at_exit(void (*fn)(void *), void *arg)
{
    atomic_store_explicit(&exit_fn, fn, memory_order_relaxed);
    pthread_once(&exit_once, exit_key_create);
    return exit_key_error ? exit_key_error : pthread_setspecific(exit_key, arg);
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
