/* alloc.c — the OpenMP memory-allocator routines (omp_*alloc*, omp_free, allocators, defaults) and GOMP_alloc/GOMP_free, C and Fortran. */
#include <stdint.h>
#include <string.h>

#include "abi/export.h"
#include "base/fatal.h"
#include "base/omp_types.h"
#include "core/alloc.h"
#include "core/task_exec.h"
#include "core/thread.h"

ILAN_EXPORT omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                                      const omp_alloctrait_t traits[])
{
    return alloc_init_allocator(memspace, ntraits, traits);
}

ILAN_EXPORT void omp_destroy_allocator(omp_allocator_handle_t allocator)
{
    alloc_destroy_allocator(allocator);
}

ILAN_EXPORT void omp_set_default_allocator(omp_allocator_handle_t allocator)
{
    struct ilan_thread *ts = thread_self();
    task_icv_will_change(ts); /* an included task restores its creator's */
    ts->icv.def_allocator = (uintptr_t)allocator;
}

ILAN_EXPORT omp_allocator_handle_t omp_get_default_allocator(void)
{
    uintptr_t a = thread_self()->icv.def_allocator;
    return (omp_allocator_handle_t)(a ? a : (uintptr_t)omp_default_mem_alloc);
}

ILAN_EXPORT void *omp_aligned_alloc(size_t alignment, size_t size, omp_allocator_handle_t allocator)
{
    return alloc_aligned(alignment, size, (uintptr_t)allocator);
}

ILAN_EXPORT void *omp_alloc(size_t size, omp_allocator_handle_t allocator)
{
    return alloc_aligned(1, size, (uintptr_t)allocator);
}

ILAN_EXPORT void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                                     omp_allocator_handle_t allocator)
{
    size_t bytes;
    if (__builtin_mul_overflow(nmemb, size, &bytes))
        return NULL;
    void *p = alloc_aligned(alignment, bytes, (uintptr_t)allocator);
    if (p)
        memset(p, 0, bytes);
    return p;
}

ILAN_EXPORT void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator)
{
    return omp_aligned_calloc(1, nmemb, size, allocator);
}

ILAN_EXPORT void omp_free(void *ptr, omp_allocator_handle_t allocator)
{
    (void)allocator; /* the block's header knows better */
    alloc_free(ptr);
}

ILAN_EXPORT void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                              omp_allocator_handle_t free_allocator)
{
    (void)free_allocator; /* the old block's header knows its allocator */
    return alloc_realloc(ptr, size, (uintptr_t)allocator);
}

/* gcc's lowering of the `allocate` directive/clause: failure is fatal. */
ILAN_EXPORT void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator)
{
    void *p = alloc_aligned(alignment, size, allocator);
    if (p == NULL && size != 0)
        ilan_fatal("out of memory allocating %zu bytes", size);
    return p;
}

ILAN_EXPORT void GOMP_free(void *ptr, uintptr_t allocator)
{
    omp_free(ptr, (omp_allocator_handle_t)allocator);
}

/* ---- Fortran ---------------------------------------------------------- */

ILAN_EXPORT intptr_t omp_init_allocator_(const intptr_t *memspace, const int32_t *ntraits,
                                         const omp_alloctrait_t *traits)
{
    return (intptr_t)omp_init_allocator((omp_memspace_handle_t)*memspace, (int)*ntraits, traits);
}

ILAN_EXPORT intptr_t omp_init_allocator_8_(const intptr_t *memspace, const int64_t *ntraits,
                                           const omp_alloctrait_t *traits)
{
    return (intptr_t)omp_init_allocator((omp_memspace_handle_t)*memspace, (int)*ntraits, traits);
}

ILAN_EXPORT void omp_destroy_allocator_(const intptr_t *allocator)
{
    omp_destroy_allocator((omp_allocator_handle_t)*allocator);
}

ILAN_EXPORT void omp_set_default_allocator_(const intptr_t *allocator)
{
    omp_set_default_allocator((omp_allocator_handle_t)*allocator);
}

ILAN_EXPORT intptr_t omp_get_default_allocator_(void)
{
    return (intptr_t)omp_get_default_allocator();
}
