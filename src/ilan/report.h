/* report.h — ILAN_REPORT: what the taskloop scheduler measured and decided. */
#ifndef ILAN_ILAN_REPORT_H
#define ILAN_ILAN_REPORT_H

/* Arranges for the report to be written at exit to `dest` (a file name,
 * already expanded, or "stderr" / "stdout"); see python/ilan for the
 * reader of the JSON. Once, at start-up. */
void ilan_report_at_exit(const char *dest);

#endif
