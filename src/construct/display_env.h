/* display_env.h — the OMP_DISPLAY_ENV block. */
#ifndef ILAN_CONSTRUCT_DISPLAY_ENV_H
#define ILAN_CONSTRUCT_DISPLAY_ENV_H

#include <stdbool.h>

/* Writes the OMP_DISPLAY_ENV block (OpenMP 5.1 format) on stderr as one
 * write; verbose adds the GOMP_* / ILAN_* settings. Any thread. */
void display_env(bool verbose);

#endif
