/* load.c — the busy CPU time of given CPUs, from the per-CPU lines of /proc/stat. */
#include "os/linux/load.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool os_cpus_busy_ns(const int *cpus, int n, uint64_t *busy_ns)
{
    long tick = sysconf(_SC_CLK_TCK);
    FILE *f = tick > 0 ? fopen("/proc/stat", "re") : NULL;
    if (!f)
        return false;
    char line[512];
    unsigned long long ticks = 0;
    int next = 0;  /* cpus[next] is the next CPU to look for: the lines come in CPU order */
    int found = 0; /* listed CPUs whose line was read */
    while (next < n && fgets(line, sizeof line, f)) {
        if (strncmp(line, "cpu", 3) != 0)
            break; /* past the CPU lines */
        if (!isdigit((unsigned char)line[3]))
            continue; /* the all-CPU line */
        int cpu;
        unsigned long long user, nice, system, idle, iowait, irq, softirq;
        if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice,
                   &system, &idle, &iowait, &irq, &softirq) != 8)
            break;
        while (next < n && cpus[next] < cpu)
            next++; /* no line: offline */
        if (next < n && cpus[next] == cpu) {
            ticks += user + nice + system + irq + softirq;
            next++;
            found++;
        }
    }
    fclose(f);
    if (found == 0)
        return false;
    *busy_ns = ticks * (1000000000ull / (unsigned long long)tick);
    return true;
}
