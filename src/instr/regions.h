/* regions.h — what the report needs from the per-region measurement: whether the OS counters could be opened. */
#ifndef ILAN_INSTR_REGIONS_H
#define ILAN_INSTR_REGIONS_H

#include <stdbool.h>
#include "instr/counters.h"

/* The errno with which perf_event_open refused the OS counters, 0 when it
 * did not (or was not asked). */
int instr_os_refusal(void);

/* ILAN_COUNTERS=all, and some thread's hardware counters could not be opened. */
bool instr_os_hw_missing(void);

#endif
