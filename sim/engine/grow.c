/* grow.c — the engine's growing arrays (grow.h). */
#include "grow.h"

#include <stdio.h>
#include <stdlib.h>

void *sim_grow(void *p, unsigned long *cap, size_t elem, unsigned long first, const char *what)
{
    *cap = *cap ? 2 * *cap : first;
    p = realloc(p, *cap * elem);
    if (!p) {
        fprintf(stderr, "ilan-sim-engine: out of memory for %s\n", what);
        exit(1);
    }
    return p;
}
