/* thread.h — OS threads, CPU sets and yielding: the thread half of the OS layer. */
#ifndef ILAN_OS_THREAD_H
#define ILAN_OS_THREAD_H

#include <pthread.h>
#include <stddef.h>

/* Starts an OS thread running fn(arg) with a stack of stack_bytes (0: the
 * system default), storing its handle in *thread. Returns 0 or an errno
 * value. The thread must eventually be joined, or live until exit. */
int os_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, size_t stack_bytes);

/* Waits until the thread has exited. */
void os_thread_join(pthread_t thread);

/* Makes fn(arg) run when the calling thread exits (pthread_exit or a
 * return from its start routine; not at exit() of the process), once per
 * call of this function in that thread. Every caller must pass the same
 * fn: it is registered once per process. Returns 0 or an errno value. */
int os_thread_at_exit(void (*fn)(void *), void *arg);

/* Number of CPUs in the calling process's affinity mask (taskset, cgroups);
 * at least 1. */
unsigned os_cpus_allowed(void);

/* Gives the CPU to another runnable thread. */
void os_yield(void);

/* CPU relax hint for spin loops. */
static inline void os_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

#endif
