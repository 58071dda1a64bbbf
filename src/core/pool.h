/* pool.h — the process-wide pool of worker threads that teams borrow. */
#ifndef ILAN_CORE_POOL_H
#define ILAN_CORE_POOL_H

#include <pthread.h>
#include <stdalign.h>
#include <stdbool.h>
#include "core/wait.h"
#include "base/tunables.h"

struct ilan_thread;

/* A pool thread. Owned by at most one team at a time; between regions it
 * sleeps on `go`. */
struct worker {
    alignas(ILAN_CACHE_LINE) seqword go; /* advanced by a master to dispatch a region */
    void (*run)(void *job, unsigned team_id); /* what to run, written before `go` advances;
                                            NULL asks the thread to exit */
    void *job;                           /* its argument (the team to join) */
    unsigned team_id;                    /* thread number in that team */
    unsigned runs;                       /* dispatches so far (written by its dispatcher) */
    _Atomic unsigned runs_done;          /* dispatches it has returned from (written by itself):
                                            past a run, it touches that run's job no more */
    unsigned index;                      /* creation order, for diagnostics */
    pthread_t thread;                    /* its OS thread, joined when it retires */
    bool started;                        /* its thread was started: pool_acquire hands out
                                            new workers without one, and their first
                                            pool_dispatch starts it */
    struct worker *next_idle;            /* link in the pool's idle stack */
};

/* Fills out[0..n-1] with idle workers, adding new ones as needed: a new
 * worker's thread starts at its first pool_dispatch, so every worker
 * acquired must be dispatched before it is released. Any thread. */
void pool_acquire(struct worker **out, unsigned n);

/* The worker threads alive now (busy or idle, not retired); any thread
 * may ask, the answer may be a moment old. */
unsigned pool_threads(void);

/* Returns n workers that have finished their region to the pool. */
void pool_release(struct worker **w, unsigned n);

/* Ends every idle worker thread (omp_pause_resource); later regions create
 * new threads. Returns once they have all exited (each ran the exit hook
 * first). Any thread outside a parallel region. */
void pool_retire_idle(void);

/* Makes a worker run run(job, team_id) (a region's implicit task) once,
 * and returns the number of that run (for pool_wait_run). Starts the
 * worker's thread if it has none yet, dying with a message if the OS
 * refuses. The thread that acquired it, or one it handed the dispatch to
 * with a happens-before (team.c's start tree). */
unsigned pool_dispatch(struct worker *w, void (*run)(void *job, unsigned team_id), void *job,
                       unsigned team_id);

/* Waits until w has returned from its run number `run`: from then on it
 * touches that run's job no more, even if it was released to the pool
 * (and dispatched again) before it got there. The job's owner may then
 * free it. Any thread; the wait is a few instructions of the worker's
 * unless it is preempted, hence yields. */
void pool_wait_run(const struct worker *w, unsigned run);

/* What a worker thread does just before it exits (retired): free what its
 * thread state still owns (team.c: the teams it mastered). */
void pool_set_exit_hook(void (*hook)(struct ilan_thread *ts));

#endif
