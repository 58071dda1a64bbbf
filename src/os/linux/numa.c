/* numa.c — mbind, move_pages, mprotect, mmap and sigaction for memory placement on Linux (through libnuma's numaif.h). */
#include "os/linux/numa.h"

/*
 * libnuma rather than hwloc's membind API: the placement engine works on
 * kernel node numbers and single ranges, which numaif.h's thin wrappers
 * (mbind, move_pages) take as they are, while hwloc's membind calls need a
 * topology of this system, which a what-if model is not, and hwloc stays
 * the machine model's business (src/topo/topo.c). Only numaif.h's system
 * call wrappers are used, never libnuma's policy state.
 */
#include <errno.h>
#include <stdatomic.h>
#include <numaif.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t os_page_size(void)
{
    /* Any thread may ask first; all compute the same value. */
    static _Atomic size_t page;
    size_t size = atomic_load_explicit(&page, memory_order_relaxed);
    if (!size) {
        long p = sysconf(_SC_PAGESIZE);
        size = p > 0 ? (size_t)p : 4096;
        atomic_store_explicit(&page, size, memory_order_relaxed);
    }
    return size;
}

void *os_mem_map(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int os_mem_unmap(void *addr, size_t len)
{
    return munmap(addr, len) == 0 ? 0 : errno;
}

int os_mem_protect(void *addr, size_t len, bool access)
{
    return mprotect(addr, len, access ? PROT_READ | PROT_WRITE : PROT_NONE) == 0 ? 0 : errno;
}

int os_mem_bind(void *addr, size_t len, int node)
{
    if (node < 0 || node >= 8 * (int)sizeof(unsigned long) * 16)
        return EINVAL;
    unsigned long mask[16] = {0};
    mask[node / (8 * sizeof(unsigned long))] |= 1ul << (node % (8 * sizeof(unsigned long)));
    long rc = mbind(addr, len, MPOL_BIND, mask, 8 * sizeof mask + 1,
                    MPOL_MF_MOVE | MPOL_MF_STRICT);
    return rc == 0 ? 0 : errno;
}

int os_mem_move_list(void **pages, const int *nodes, size_t n)
{
    int status[OS_NUMA_BATCH];
    int saved = errno;
    /* Per-page failures (-ENOENT: never touched) are in status[]; the call
     * fails only for the whole batch. */
    int rc = n == 0 || move_pages(0, (unsigned long)n, pages, nodes, status, MPOL_MF_MOVE) >= 0
                 ? 0
                 : errno;
    errno = saved;
    return rc;
}

int os_mem_where(const void *addr, size_t npages, size_t page, int *where)
{
    void *pages[OS_NUMA_BATCH];
    const char *p = addr;
    for (size_t done = 0; done < npages;) {
        size_t n = npages - done < OS_NUMA_BATCH ? npages - done : OS_NUMA_BATCH;
        for (size_t i = 0; i < n; i++)
            pages[i] = (void *)(p + (done + i) * page);
        if (move_pages(0, (unsigned long)n, pages, NULL, where + done, 0) < 0)
            return errno;
        for (size_t i = 0; i < n; i++)
            if (where[done + i] < 0)
                where[done + i] = -1;
        done += n;
    }
    return 0;
}

int os_segv_install(os_segv_handler *h, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = h;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGSEGV, &sa, old) == 0 ? 0 : errno;
}

void os_segv_default(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
}
