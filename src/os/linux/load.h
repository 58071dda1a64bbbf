/* load.h — how busy the whole machine has been: the CPU time every process on it used, from /proc/stat. */
#ifndef ILAN_OS_LOAD_H
#define ILAN_OS_LOAD_H

#include <stdbool.h>
#include <stdint.h>

/* CPU time (ns) the machine's CPUs spent running anything (user, nice,
 * system, interrupts; not idle, I/O wait or time the hypervisor took)
 * since boot, into *busy_ns. In the kernel's clock ticks (10 ms here):
 * compare spans of a tenth of a second or more. A few system calls;
 * false when /proc/stat cannot be read. */
bool os_machine_busy_ns(uint64_t *busy_ns);

#endif
