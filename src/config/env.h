/* env.h — what abi/env.c keeps besides the ICVs: ilan's own knobs and the display of the environment. */
#ifndef ILAN_ABI_ENV_H
#define ILAN_ABI_ENV_H

#include <stdbool.h>

/* ILAN_VERBOSE: 0 (default) quiet; 1 one start-up line saying what ilan
 * decided, and a line per ILAN taskloop decision; 2 also the
 * OMP_DISPLAY_ENV=verbose block. */
extern int env_verbose;

/* Writes the OMP_DISPLAY_ENV block (OpenMP 5.1 format) on stderr as one
 * write; verbose adds the GOMP_* / ILAN_* settings. */
void env_display(bool verbose);

#endif
