/* task_alloc.c — task descriptors: per-thread free lists by size class, a shared pool for the surplus, never returned to the system. */
#include "core/task_alloc.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/mutex.h"

/*
 * Descriptors (with the argument block inline when it fits) come in size
 * classes of 256 << c bytes. Each thread keeps a free list per class; a task
 * is freed into the list of the thread that drops its last reference. A
 * list that grows past ILAN_TASK_CACHE_MAX hands a batch to a process-wide
 * pool, where threads with an empty list look before calling malloc: a
 * thread that only consumes tasks would otherwise hoard them.
 * Descriptors are never returned to the system (type-stable memory): a
 * thief may read the `parent` field of a task another thread has just taken
 * and freed (the scheduling-constraint check in deque_steal_if), and reads
 * a stale but harmless value. */

struct task_cache {
    struct task *head[ILAN_TASK_CLASSES]; /* free descriptors per class */
    unsigned count[ILAN_TASK_CLASSES];    /* their number */
};
static __thread struct task_cache task_cache;

static struct {
    mutex_t lock;                         /* guards the lists */
    struct task *head[ILAN_TASK_CLASSES]; /* free descriptors handed back by threads */
    unsigned long count[ILAN_TASK_CLASSES];
} task_pool = {MUTEX_INIT, {0}, {0}};

static inline size_t class_bytes(unsigned c)
{
    return (size_t)256 << c;
}

static __attribute__((noinline)) struct task *task_alloc_slow(unsigned c)
{
    struct task_cache *tc = &task_cache;
    mutex_lock(&task_pool.lock);
    for (unsigned i = 0; i < ILAN_TASK_CACHE_BATCH && task_pool.head[c]; i++) {
        struct task *t = task_pool.head[c];
        task_pool.head[c] = t->next_free;
        task_pool.count[c]--;
        t->next_free = tc->head[c];
        tc->head[c] = t;
        tc->count[c]++;
    }
    mutex_unlock(&task_pool.lock);
    if (tc->head[c]) {
        struct task *t = tc->head[c];
        tc->head[c] = t->next_free;
        tc->count[c]--;
        return t;
    }
    struct task *t = aligned_alloc(ILAN_CACHE_LINE, class_bytes(c));
    if (!t)
        ilan_fatal("out of memory allocating a task");
    return t;
}

/* A descriptor with room for arg_size bytes aligned to arg_align after it
 * (t->data points there); a bigger block is malloc'd apart. */
struct task *task_alloc(size_t arg_size, size_t arg_align)
{
    if (arg_align < 1)
        arg_align = 1;
    size_t need = sizeof(struct task) + arg_align - 1 + arg_size;
    unsigned c = 0;
    while (c < ILAN_TASK_CLASSES && class_bytes(c) < need)
        c++;
    bool big = c == ILAN_TASK_CLASSES;
    if (big)
        c = 0;
    struct task_cache *tc = &task_cache;
    struct task *t = tc->head[c];
    if (__builtin_expect(t != NULL, 1)) {
        tc->head[c] = t->next_free;
        tc->count[c]--;
    } else {
        t = task_alloc_slow(c);
    }
    t->size_class = c;
    if (!big) {
        uintptr_t p = (uintptr_t)(t + 1);
        t->data = (void *)((p + arg_align - 1) & ~(uintptr_t)(arg_align - 1));
        t->big_args = NULL;
    } else {
        if (arg_align < sizeof(void *))
            arg_align = sizeof(void *);
        void *p = NULL;
        if (posix_memalign(&p, arg_align, arg_size ? arg_size : 1) != 0)
            ilan_fatal("out of memory allocating a task's %zu-byte argument block", arg_size);
        t->data = t->big_args = p;
    }
    return t;
}

void task_release_block(struct task *t)
{
    if (t->big_args)
        free(t->big_args);
    unsigned c = t->size_class;
    struct task_cache *tc = &task_cache;
    t->next_free = tc->head[c];
    tc->head[c] = t;
    if (++tc->count[c] <= ILAN_TASK_CACHE_MAX)
        return;
    /* Hand a batch to the pool. */
    struct task *first = tc->head[c], *last = first;
    for (unsigned i = 1; i < ILAN_TASK_CACHE_BATCH; i++)
        last = last->next_free;
    tc->head[c] = last->next_free;
    tc->count[c] -= ILAN_TASK_CACHE_BATCH;
    mutex_lock(&task_pool.lock);
    last->next_free = task_pool.head[c];
    task_pool.head[c] = first;
    task_pool.count[c] += ILAN_TASK_CACHE_BATCH;
    mutex_unlock(&task_pool.lock);
}

void task_alloc_thread_exit(void)
{
    struct task_cache *tc = &task_cache;
    for (unsigned c = 0; c < ILAN_TASK_CLASSES; c++) {
        struct task *first = tc->head[c];
        if (!first)
            continue;
        struct task *last = first;
        while (last->next_free)
            last = last->next_free;
        mutex_lock(&task_pool.lock);
        last->next_free = task_pool.head[c];
        task_pool.head[c] = first;
        task_pool.count[c] += tc->count[c];
        mutex_unlock(&task_pool.lock);
        tc->head[c] = NULL;
        tc->count[c] = 0;
    }
}
