/* load.c — the machine's busy CPU time, from the first line of /proc/stat. */
#include "os/linux/load.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

bool os_machine_busy_ns(uint64_t *busy_ns)
{
    char line[256];
    int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t got = read(fd, line, sizeof line - 1);
    close(fd);
    if (got <= 0)
        return false;
    line[got] = 0;
    /* cpu  user nice system idle iowait irq softirq steal ... */
    unsigned long long user, nice, system, idle, iowait, irq, softirq;
    if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle,
               &iowait, &irq, &softirq) != 7)
        return false;
    long tick = sysconf(_SC_CLK_TCK);
    if (tick <= 0)
        return false;
    *busy_ns = (user + nice + system + irq + softirq) * (1000000000ull / (unsigned long long)tick);
    return true;
}
