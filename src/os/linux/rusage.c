/* rusage.c — the calling thread's voluntary and involuntary context switches (getrusage with RUSAGE_THREAD). */
#include "os/linux/rusage.h"

#include <sys/resource.h>

bool os_thread_switches(struct os_switches *s)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0) {
        s->voluntary = s->involuntary = 0;
        return false;
    }
    s->voluntary = (uint64_t)ru.ru_nvcsw;
    s->involuntary = (uint64_t)ru.ru_nivcsw;
    return true;
}
