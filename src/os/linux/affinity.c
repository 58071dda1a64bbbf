/* affinity.c — reading the calling thread's CPU mask, thread id and host name on Linux. */
#include "os/linux/affinity.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int os_thread_cpus(int *cpus, int max)
{
    /* Grow the set until the kernel's mask fits (machines beyond 1024 CPUs). */
    for (int ncpus = 1024; ncpus <= (1 << 20); ncpus *= 2) {
        cpu_set_t *set = CPU_ALLOC(ncpus);
        if (set == NULL)
            return -1;
        size_t bytes = CPU_ALLOC_SIZE(ncpus);
        CPU_ZERO_S(bytes, set);
        if (sched_getaffinity(0, bytes, set) != 0) {
            CPU_FREE(set);
            continue; /* EINVAL: the mask is larger than ours */
        }
        int n = 0;
        for (int c = 0; c < ncpus; c++)
            if (CPU_ISSET_S(c, bytes, set)) {
                if (n < max)
                    cpus[n] = c;
                n++;
            }
        CPU_FREE(set);
        return n;
    }
    return -1;
}

int os_thread_bind(const int *cpus, int n)
{
    int ncpus = 1024;
    for (int i = 0; i < n; i++)
        while (cpus[i] >= ncpus)
            ncpus *= 2;
    cpu_set_t *set = CPU_ALLOC(ncpus);
    if (set == NULL)
        return ENOMEM;
    size_t bytes = CPU_ALLOC_SIZE(ncpus);
    CPU_ZERO_S(bytes, set);
    for (int i = 0; i < n; i++)
        if (cpus[i] >= 0)
            CPU_SET_S(cpus[i], bytes, set);
    int rc = sched_setaffinity(0, bytes, set) == 0 ? 0 : errno;
    CPU_FREE(set);
    return rc;
}

int os_current_cpu(void)
{
    return sched_getcpu();
}

long os_thread_native_id(void)
{
    return (long)syscall(SYS_gettid);
}

long os_process_id(void)
{
    return (long)getpid();
}

void os_host_name(char *buf, size_t size)
{
    if (size == 0)
        return;
    if (gethostname(buf, size) != 0)
        strncpy(buf, "localhost", size);
    buf[size - 1] = '\0';
}
