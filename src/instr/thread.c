/* thread.c — the registry of per-thread counter blocks: made on a thread's first event, never freed, walked by the report. */
#include "instr/thread.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "os/linux/affinity.h"
#include "os/linux/ticks.h"

struct instr_flags instr_flags;
__thread struct instr_thread *instr_self __attribute__((tls_model("initial-exec")));

static struct instr_thread *_Atomic registry; /* every block, newest first */
static _Atomic unsigned registered;           /* blocks made so far */

struct instr_thread *instr_thread_register_in(unsigned state)
{
    size_t size = (sizeof(struct instr_thread) + ILAN_CACHE_LINE - 1) / ILAN_CACHE_LINE *
                  ILAN_CACHE_LINE;
    struct instr_thread *me = aligned_alloc(ILAN_CACHE_LINE, size);
    if (!me)
        ilan_fatal("out of memory for a thread's counters");
    memset(me, 0, size);
    me->state = state;
    me->since = os_ticks();
    me->tid = os_thread_native_id();
    me->id = atomic_fetch_add_explicit(&registered, 1, memory_order_relaxed);
    struct instr_thread *head = atomic_load_explicit(&registry, memory_order_relaxed);
    do
        atomic_store_explicit(&me->next, head, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&registry, &head, me, memory_order_release,
                                                  memory_order_relaxed));
    instr_self = me;
    return me;
}

struct instr_thread *instr_thread_register(void)
{
    return instr_thread_register_in(INSTR_S_idle);
}

struct instr_thread *instr_threads(void)
{
    return atomic_load_explicit(&registry, memory_order_acquire);
}

unsigned instr_thread_count(void)
{
    return atomic_load_explicit(&registered, memory_order_relaxed);
}

