/* prefetch.h — asking for a cache line ahead of a write to it, so that several misses overlap instead of following each other. */
#ifndef ILAN_BASE_PREFETCH_H
#define ILAN_BASE_PREFETCH_H

#include <stddef.h>

/* Asks for the line holding p in a state that lets this CPU write it
 * (x86's PREFETCHW: a line another CPU wrote or reads then costs one
 * round trip here, not one at the read and another at the write). Only a
 * hint: p may be any address, it never faults. */
static inline void prefetch_for_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1);
#endif
}

/* prefetch_for_write for every line of [p, p + size), of line size `line`. */
static inline void prefetch_range_for_write(const void *p, size_t size, size_t line)
{
    for (size_t at = 0; at < size; at += line)
        prefetch_for_write((const char *)p + at);
}

#endif
