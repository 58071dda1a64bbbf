/* pool.c — creating worker threads, parking them between regions, and lending them to teams. */
#include "core/pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "core/mutex.h"
#include "core/thread.h"
#include "instr/counters.h"
#include "os/linux/thread.h"
#include "topo/bind.h"

static mutex_t pool_lock = MUTEX_INIT;   /* guards idle_top and created */
static struct worker *idle_top;          /* idle workers, most recently used first */
static _Atomic unsigned created;         /* workers alive: created and not retired (written
                                            under pool_lock, read by pool_threads) */
static struct worker *retired_top;       /* structs of exited workers, for the next ones: never
                                            freed, so that pool_wait_run can read any worker's
                                            runs_done, even after its thread retired */
static void (*exit_hook)(struct ilan_thread *ts); /* see pool_set_exit_hook */

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct ilan_thread *ts = &ilan_tls;
    ts->worker = w;
    ts->icv = icv_global.initial;
    bind_thread_init(&ts->bind);
    ts->ready = true;
    ILAN_THREAD_STARTS(&ts->task_starts);
    /* Each dispatch advances `go` once; a retired struct's earlier runs
     * are all done (its thread returned from them and exited). */
    unsigned seen = atomic_load_explicit(&w->runs_done, memory_order_relaxed) * SEQ_STEP;
    for (;;) {
        seq_wait_past(&w->go, seen);
        seen += SEQ_STEP;
        void (*run)(void *, unsigned) = w->run;
        if (run)
            run(w->job, w->team_id);
        atomic_store_explicit(&w->runs_done, seen / SEQ_STEP, memory_order_release);
        if (!run)
            break;
    }
    if (exit_hook)
        exit_hook(ts);
    return NULL;
}

void pool_set_exit_hook(void (*hook)(struct ilan_thread *ts))
{
    exit_hook = hook;
}

/* In a child of fork() only the forking thread exists: forget the workers
 * of the parent so the child's next region creates its own. */
static void pool_forget_after_fork(void)
{
    idle_top = NULL;
    atomic_store_explicit(&created, 0, memory_order_relaxed);
    atomic_store_explicit(&pool_lock.state, 0, memory_order_relaxed);
}

static void pool_register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, pool_forget_after_fork);
}

/* A worker struct for a new thread: a retired one when there is one, else
 * a fresh one. Its thread is started at its first dispatch (worker_start),
 * with its first run already assigned. */
static struct worker *worker_new(void)
{
    mutex_lock(&pool_lock);
    struct worker *w = retired_top;
    if (w)
        retired_top = w->next_idle;
    mutex_unlock(&pool_lock);
    if (!w) {
        w = aligned_alloc(ILAN_CACHE_LINE, sizeof *w);
        if (!w)
            ilan_fatal("out of memory creating a worker thread");
        memset(w, 0, sizeof *w);
    }
    /* A retired struct keeps go, runs and runs_done counting on. */
    w->run = NULL;
    w->job = NULL;
    w->next_idle = NULL;
    w->started = false;
    return w;
}

/* Starts w's thread, whose first run pool_dispatch has just assigned: the
 * thread finds `go` already advanced and runs it at once, so a new worker
 * never waits to be dispatched (and its dispatcher never wakes it). */
static void worker_start(struct worker *w)
{
    static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;
    pthread_once(&fork_handler_once, pool_register_fork_handler);
    w->started = true;
    size_t stack = icv_global.stacksize ? icv_global.stacksize : ILAN_DEFAULT_STACKSIZE;
    int rc = os_thread_start(&w->thread, worker_main, w, stack);
    if (rc)
        ilan_fatal("cannot create worker thread %u (error %d, stack %zu bytes): "
                   "lower OMP_NUM_THREADS or OMP_STACKSIZE",
                   w->index + 1, rc, stack);
}

void pool_acquire(struct worker **out, unsigned n)
{
    unsigned got = 0;
    mutex_lock(&pool_lock);
    while (got < n && idle_top) {
        out[got++] = idle_top;
        idle_top = idle_top->next_idle;
    }
    unsigned first_new = atomic_fetch_add_explicit(&created, n - got, memory_order_relaxed);
    mutex_unlock(&pool_lock);
    for (unsigned i = 0; got < n; i++, got++) {
        out[got] = worker_new();
        out[got]->index = first_new + i;
    }
}

unsigned pool_threads(void)
{
    return atomic_load_explicit(&created, memory_order_relaxed);
}

void pool_release(struct worker **w, unsigned n)
{
    if (n == 0)
        return;
    for (unsigned i = 0; i + 1 < n; i++)
        w[i]->next_idle = w[i + 1];
    mutex_lock(&pool_lock);
    w[n - 1]->next_idle = idle_top;
    idle_top = w[0];
    mutex_unlock(&pool_lock);
}

unsigned pool_dispatch(struct worker *w, void (*run)(void *job, unsigned team_id), void *job,
                       unsigned team_id)
{
    w->run = run;
    w->job = job;
    w->team_id = team_id;
    unsigned number = ++w->runs;
    seq_advance(&w->go, seq_read(&w->go));
    if (!w->started)
        worker_start(w);
    return number;
}

void pool_wait_run(const struct worker *w, unsigned run)
{
    while ((int)(atomic_load_explicit(&w->runs_done, memory_order_acquire) - run) < 0)
        os_yield();
}

void pool_retire_idle(void)
{
    static mutex_t retire_lock = MUTEX_INIT; /* one retirement at a time */
    mutex_lock(&retire_lock);
    mutex_lock(&pool_lock);
    struct worker *list = idle_top;
    idle_top = NULL;
    for (struct worker *w = list; w; w = w->next_idle)
        atomic_fetch_sub_explicit(&created, 1, memory_order_relaxed);
    mutex_unlock(&pool_lock);

    for (struct worker *w = list; w; w = w->next_idle)
        pool_dispatch(w, NULL, NULL, 0);
    struct worker *last = NULL;
    for (struct worker *w = list; w; w = w->next_idle) {
        os_thread_join(w->thread);
        last = w;
    }
    if (last) {
        mutex_lock(&pool_lock);
        last->next_idle = retired_top;
        retired_top = list;
        mutex_unlock(&pool_lock);
    }
    mutex_unlock(&retire_lock);
}
