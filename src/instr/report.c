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

void report_file_write(const char *var, const char *what, const char *path,
                       void (*contents)(FILE *f))
{
    fflush(NULL);
    const char *why = os_file_refusal(path);
    if (why) {
        ilan_warn("%s: not writing %s: %s; no %s written", var, path, why, what);
        return;
    }
    char tmp[4200];
    FILE *f = os_file_create_beside(path, tmp, sizeof tmp);
    if (!f) {
        ilan_warn("%s: cannot write beside %s: %s; no %s written", var, path, strerror(errno),
                  what);
        return;
    }
    contents(f);
    int rc = os_file_publish(f, tmp, path);
    if (rc != 0)
        ilan_warn("%s: error writing %s: %s; no %s written", var, path, strerror(rc), what);
}

/* atexit: writes the report where ILAN_REPORT said, after the program's
 * own buffered output: the summary on standard error or output, else the
 * file (report_file_write). */
static void report_write(void)
{
    fflush(NULL);
    if (strcmp(report_dest, "stderr") == 0 || strcmp(report_dest, "stdout") == 0) {
        FILE *f = report_dest[3] == 'e' ? stderr : stdout;
        report_summary(f);
        fflush(f);
        return;
    }
    report_file_write("ILAN_REPORT", "report", report_dest, report_json);
}

void report_at_exit(const char *dest, void (*json)(FILE *f), void (*summary)(FILE *f))
{
    report_json = json;
    report_summary = summary;
    report_dest = strdup(dest);
    if (!report_dest || atexit(report_write) != 0)
        ilan_warn("ILAN_REPORT: cannot arrange the report; none will be written");
}
