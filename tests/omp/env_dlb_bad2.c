// env_dlb_bad2.c - bad ILAN_DLB_* parameters (zero victims, a steal count
// out of range, a word for the interval, a probability above 1) each get the
// one-line warning, and na-rp still runs every task exactly once with the
// defaults.
// ilan-test: threads=2
// ilan-test: env=ILAN_DLB=na-rp;ILAN_DLB_VICTIMS=0;ILAN_DLB_STEAL=5000;ILAN_DLB_INTERVAL=often;ILAN_DLB_PLOCAL=1.5
// ilan-test: expect-output: ^ilan: Invalid value for environment variable ILAN_DLB_PLOCAL: '1\.5'. using the default$
#include "env_dlb_bad.c"
