/* report.h — ILAN_REPORT: what the taskloop scheduler measured and decided, written at exit. */
#ifndef ILAN_INSTR_REPORT_H
#define ILAN_INSTR_REPORT_H

/* Arranges for the report to be written at exit: to the file `dest` as
 * JSON (see python/ilan for the reader), or as a readable summary on
 * standard error or output when dest is "stderr" or "stdout". Called once,
 * by env_init, with the file name already expanded (%p, %r). */
void report_at_exit(const char *dest);

#endif
