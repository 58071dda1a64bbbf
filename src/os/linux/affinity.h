/* affinity.h — the calling thread's CPU mask and identity, as the OS reports them. */
#ifndef ILAN_OS_AFFINITY_H
#define ILAN_OS_AFFINITY_H

#include <stddef.h>

/* Writes the CPUs the calling thread may run on, in increasing order, to
 * cpus[0..max-1] and returns how many there are (which may exceed max);
 * -1 if the OS does not say. */
int os_thread_cpus(int *cpus, int max);

/* Pins the calling thread to cpus[0..n-1] (sched_setaffinity). Returns 0
 * or an errno value. */
int os_thread_bind(const int *cpus, int n);

/* The CPU the calling thread is running on now (it may move at once when
 * unbound); -1 if the OS does not say. */
int os_current_cpu(void);

/* The calling thread's kernel thread id (gettid). */
long os_thread_native_id(void);

/* The process id. */
long os_process_id(void);

/* The host name, NUL-terminated and truncated to fit buf[0..size-1]. */
void os_host_name(char *buf, size_t size);

#endif
