/* report.h — files written at exit (ILAN_REPORT, ILAN_TRACE): the safe writing, for any layer to use. */
#ifndef ILAN_INSTR_REPORT_H
#define ILAN_INSTR_REPORT_H

#include <stdio.h>

/* Arranges for a report to be written at exit, after the program's own
 * buffered output: json(f) into the file `dest` (report_file_write), or
 * summary(f) on standard error or output when dest is "stderr" or
 * "stdout". Once, at start-up. */
void report_at_exit(const char *dest, void (*json)(FILE *f), void (*summary)(FILE *f));

/* Writes contents(f) into the file `path` now: beside it, then renamed
 * over it, so that a reader never sees half a file; a target that is not
 * a regular file (a symlink, a FIFO nobody reads) is refused, never
 * waited on. One line on stderr for each refusal or failure, naming the
 * variable `var` and saying no `what` ("report", "trace") was written. */
void report_file_write(const char *var, const char *what, const char *path,
                       void (*contents)(FILE *f));

#endif
