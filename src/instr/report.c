/* report.c — writing a report file at exit, safely: after the program's own output, never through a symlink or into a FIFO, never half written. */
#include "instr/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "os/linux/file.h"

static char *report_dest;                    /* where to write: a file, "stderr" or "stdout" */
static void (*report_json)(FILE *f);         /* writes the file's contents */
static void (*report_summary)(FILE *f);      /* writes the readable summary */

/* atexit: writes the report where ILAN_REPORT said, after the program's
 * own buffered output. A file is written beside its target and renamed
 * over it, so a reader never sees half a report; a target that is not a
 * regular file (a symlink, a FIFO nobody reads) is refused, never waited
 * on. One line on stderr for each refusal or failure. */
static void report_write(void)
{
    fflush(NULL);
    if (strcmp(report_dest, "stderr") == 0 || strcmp(report_dest, "stdout") == 0) {
        FILE *f = report_dest[3] == 'e' ? stderr : stdout;
        report_summary(f);
        fflush(f);
        return;
    }
    const char *why = os_file_refusal(report_dest);
    if (why) {
        ilan_warn("ILAN_REPORT: not writing %s: %s; no report written", report_dest, why);
        return;
    }
    char tmp[4200];
    FILE *f = os_file_create_beside(report_dest, tmp, sizeof tmp);
    if (!f) {
        ilan_warn("ILAN_REPORT: cannot write beside %s: %s; no report written", report_dest,
                  strerror(errno));
        return;
    }
    report_json(f);
    int rc = os_file_publish(f, tmp, report_dest);
    if (rc != 0)
        ilan_warn("ILAN_REPORT: error writing %s: %s; no report written", report_dest,
                  strerror(rc));
}

void report_at_exit(const char *dest, void (*json)(FILE *f), void (*summary)(FILE *f))
{
    report_json = json;
    report_summary = summary;
    report_dest = strdup(dest);
    if (!report_dest || atexit(report_write) != 0)
        ilan_warn("ILAN_REPORT: cannot arrange the report; none will be written");
}
