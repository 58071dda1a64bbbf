// env_trace_switch.c - ILAN_TRACE=on, which has to name the trace's file,
// gets the one-line warning; no trace is written and the program runs on.
// ilan-test: threads=2
// ilan-test: env=ILAN_TRACE=on
// ilan-test: expect-output: ^ilan: Invalid value for environment variable ILAN_TRACE: 'on' \(it names the trace's file, FILE.json\). no trace written$
#include "env_report_switch.c"
