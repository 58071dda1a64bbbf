/* report.h — a report file written at exit (ILAN_REPORT now, traces later): the safe writing, for any layer to use. */
#ifndef ILAN_INSTR_REPORT_H
#define ILAN_INSTR_REPORT_H

#include <stdio.h>

/* Arranges for a report to be written at exit, after the program's own
 * buffered output: json(f) into the file `dest` (written beside it and
 * renamed over it; a symlink, FIFO or other non-regular target is refused
 * in one line), or summary(f) on standard error or output when dest is
 * "stderr" or "stdout". Once, at start-up. */
void report_at_exit(const char *dest, void (*json)(FILE *f), void (*summary)(FILE *f));

#endif
