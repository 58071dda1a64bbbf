/* symbols.h — the name of a code address (an outlined OpenMP function), for reports and messages. */
#ifndef ILAN_OS_SYMBOLS_H
#define ILAN_OS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Writes the name of the function containing `addr` into buf (always
 * NUL-terminated): from the dynamic symbols when the function is exported,
 * else from the module's ELF symbol table (gcc's outlined bodies such as
 * main._omp_fn.0 are local symbols, present unless the binary is
 * stripped). Also gives the module's path and addr's offset in it (for
 * tools that resolve names themselves). Returns false (buf = "") when no
 * name is found. Reads files: call it off the hot path.
 */
bool os_symbol_name(const void *addr, char *buf, size_t size, char *module, size_t module_size,
                    unsigned long *offset);

#endif
