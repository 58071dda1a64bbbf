/* memory.c — mlock and munlock for pinned allocations on Linux. */
#include "os/linux/memory.h"

#include <errno.h>
#include <sys/mman.h>

int os_memory_pin(void *addr, size_t len)
{
    return mlock(addr, len) == 0 ? 0 : errno;
}

void os_memory_unpin(void *addr, size_t len)
{
    munlock(addr, len);
}
