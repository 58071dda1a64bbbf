/* load.h — how busy some of the machine's CPUs have been: the CPU time every process on them used, from /proc/stat. */
#ifndef ILAN_OS_LOAD_H
#define ILAN_OS_LOAD_H

#include <stdbool.h>
#include <stdint.h>

/* CPU time (ns) that CPUs cpus[0..n) (ascending) spent running anything
 * (user, nice, system, interrupts; not idle, I/O wait or time the
 * hypervisor took) since boot, into *busy_ns. In the kernel's clock ticks
 * (10 ms here): compare spans of a tenth of a second or more. Reads
 * /proc/stat; false when it cannot, or lists none of the CPUs. */
bool os_cpus_busy_ns(const int *cpus, int n, uint64_t *busy_ns);

#endif
