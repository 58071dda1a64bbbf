/* fence.h — a sequentially consistent fence that ThreadSanitizer understands. */
#ifndef ILAN_BASE_FENCE_H
#define ILAN_BASE_FENCE_H

#include <stdatomic.h>

/* A seq_cst fence. ThreadSanitizer does not model stand-alone fences (gcc
 * warns and ignores them); there a locked read-modify-write of a private
 * word stands in, which is a full barrier on x86 as well. */
#if defined(__SANITIZE_THREAD__)
static inline void ilan_fence_seq_cst(void)
{
    static _Atomic unsigned fence_word;
    atomic_fetch_add_explicit(&fence_word, 0, memory_order_seq_cst);
}
#else
#define ilan_fence_seq_cst() atomic_thread_fence(memory_order_seq_cst)
#endif

#endif
