/* results.h — the counters' part of a report (per thread, OS noise, per region), for ILAN_REPORT's writer and for ILAN_COUNTERS alone. */
#ifndef ILAN_INSTR_RESULTS_H
#define ILAN_INSTR_RESULTS_H

#include <stdio.h>

/* Writes the members "counters", "threads", "os" and "regions" of a JSON
 * object, each line indented by two spaces and followed by a comma (the
 * caller writes the object's braces and its other members after them). */
void instr_report_json(FILE *f);

/* The counters as a readable table: a line per thread (tasks, steals,
 * share of time per state) and, with OS counters, a line per thread of
 * context switches, migrations, CPU and descheduled time. Nothing when off. */
void instr_report_summary(FILE *f);

/* ILAN_COUNTERS without ILAN_REPORT: the summary on stderr at exit. */
void instr_summary_at_exit(void);

#endif
