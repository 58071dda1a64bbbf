/* grow.h — the engine's growing arrays: doubled when full, and an out-of-memory ends the run with a message. */
#ifndef ILAN_SIM_GROW_H
#define ILAN_SIM_GROW_H

#include <stddef.h>

/* p (of *cap elements of elem bytes, or NULL with *cap 0) reallocated to
 * twice *cap (or `first`), *cap updated. Never returns NULL: out of
 * memory, it prints a line naming `what` and exits. */
void *sim_grow(void *p, unsigned long *cap, size_t elem, unsigned long first, const char *what);

#endif
