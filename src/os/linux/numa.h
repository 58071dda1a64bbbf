/* numa.h — placing and finding memory pages on NUMA nodes (mbind, move_pages, mprotect, the SIGSEGV handler): the NUMA half of the OS layer. */
#ifndef ILAN_OS_NUMA_H
#define ILAN_OS_NUMA_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* The system's base page size in bytes. */
size_t os_page_size(void);

/* A fresh anonymous private mapping of len bytes (a multiple of the page
 * size), readable and writable, its pages not yet in memory; NULL with
 * errno set on failure. */
void *os_mem_map(size_t len);

/* Unmaps what os_mem_map returned. Returns 0 or an errno value. */
int os_mem_unmap(void *addr, size_t len);

/* Page-aligned [addr, addr + len): no access at all (access false), or
 * read and write (access true). Returns 0 or an errno value. */
int os_mem_protect(void *addr, size_t len, bool access);

/*
 * Puts the pages of page-aligned [addr, addr + len) on kernel node `node`
 * for good: mbind(MPOL_BIND, MPOL_MF_MOVE | MPOL_MF_STRICT), so the pages
 * already in memory move there and the others are allocated there when
 * first touched. Returns 0 or an errno value (EIO: some page could not
 * move).
 */
int os_mem_bind(void *addr, size_t len, int node);

/*
 * Moves pages[i] to kernel node nodes[i] for i < n (n <= OS_NUMA_BATCH),
 * one move_pages call; pages not in memory are skipped. Async-signal-safe.
 * Returns 0 or an errno value.
 */
int os_mem_move_list(void **pages, const int *nodes, size_t n);

/* Pages per os_mem_move_list call at most. */
#define OS_NUMA_BATCH 256

/*
 * The kernel node of each of the npages pages from page-aligned addr:
 * where[i] is its node, or -1 when the page is not in memory (never
 * touched). Returns 0 or an errno value (ENOSYS: no NUMA support).
 */
int os_mem_where(const void *addr, size_t npages, size_t page, int *where);

/* The signal handler every SIGSEGV goes to. */
typedef void os_segv_handler(int sig, siginfo_t *info, void *uctx);

/* Installs h for SIGSEGV (SA_SIGINFO | SA_RESTART | SA_NODEFER), the
 * previous action saved in *old. Returns 0 or an errno value. */
int os_segv_install(os_segv_handler *h, struct sigaction *old);

/* Sets SIGSEGV back to the default action (from inside a handler that
 * found the fault is nobody's: returning then re-runs the faulting access,
 * which kills the process as it would have without ilan). */
void os_segv_default(void);

#endif
