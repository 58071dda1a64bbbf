/* ordered.c — GOMP_ordered_* and GOMP_doacross_* (long and unsigned long long iteration vectors). */
#include <stdarg.h>
#include <stdatomic.h>

#include "abi/export.h"
#include "construct/ordered.h"
#include "core/thread.h"

ILAN_EXPORT void GOMP_ordered_start(void)
{
    ordered_start(thread_self());
}

ILAN_EXPORT void GOMP_ordered_end(void)
{
    /* The token moves at chunk boundaries (see the top of this file). */
}

ILAN_EXPORT void GOMP_doacross_post(long *counts)
{
    struct doacross *d = doacross_of_caller();
    if (!d) {
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    iter_ull v[d->ncounts];
    for (unsigned i = 0; i < d->ncounts; i++)
        v[i] = (iter_ull)counts[i];
    doacross_post(d, v);
}

ILAN_EXPORT void GOMP_doacross_wait(long first, ...)
{
    struct doacross *d = doacross_of_caller();
    if (!d) {
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    iter_ull v[d->ncounts];
    va_list ap;
    va_start(ap, first);
    v[0] = (iter_ull)first; /* a negative index becomes huge: outside */
    for (unsigned i = 1; i < d->ncounts; i++)
        v[i] = (iter_ull)va_arg(ap, long);
    va_end(ap);
    doacross_wait(d, v);
}

ILAN_EXPORT void GOMP_doacross_ull_post(unsigned long long *counts)
{
    struct doacross *d = doacross_of_caller();
    if (!d) {
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    doacross_post(d, counts);
}

ILAN_EXPORT void GOMP_doacross_ull_wait(unsigned long long first, ...)
{
    struct doacross *d = doacross_of_caller();
    if (!d) {
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    iter_ull v[d->ncounts];
    va_list ap;
    va_start(ap, first);
    v[0] = first;
    for (unsigned i = 1; i < d->ncounts; i++)
        v[i] = va_arg(ap, unsigned long long);
    va_end(ap);
    doacross_wait(d, v);
}
