/* runtime.h — the runtime's start-up, run once before the program's first OpenMP call. */
#ifndef ILAN_CONSTRUCT_RUNTIME_H
#define ILAN_CONSTRUCT_RUNTIME_H

/* Reads the environment, builds the machine model and the places, decides
 * binding and the default team size, arms ILAN_REPORT and prints what
 * OMP_DISPLAY_ENV / ILAN_VERBOSE ask for. Once, by the library's
 * constructor (abi/library.c), before any other thread exists. */
void runtime_init(void);

#endif
