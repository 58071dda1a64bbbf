/* memory.h — locking memory in RAM (the pinned allocator trait): the memory half of the OS layer. */
#ifndef ILAN_OS_MEMORY_H
#define ILAN_OS_MEMORY_H

#include <stddef.h>

/* Locks [addr, addr + len) in RAM (mlock). Returns 0 or an errno value. */
int os_memory_pin(void *addr, size_t len);

/* Undoes os_memory_pin for the same range. */
void os_memory_unpin(void *addr, size_t len);

#endif
