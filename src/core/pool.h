/* pool.h — the process-wide pool of worker threads that teams borrow. */
#ifndef ILAN_CORE_POOL_H
#define ILAN_CORE_POOL_H

#include <pthread.h>
#include <stdalign.h>
#include "core/wait.h"
#include "base/tunables.h"

struct team;

/* A pool thread. Owned by at most one team at a time; between regions it
 * sleeps on `go`. */
struct worker {
    alignas(ILAN_CACHE_LINE) seqword go; /* advanced by a master to dispatch a region */
    struct team *team;                   /* team to join, written before `go` advances;
                                            NULL asks the thread to exit */
    unsigned team_id;                    /* thread number in that team */
    unsigned index;                      /* creation order, for diagnostics */
    pthread_t thread;                    /* its OS thread, joined when it retires */
    struct worker *next_idle;            /* link in the pool's idle stack */
};

/* Fills out[0..n-1] with idle workers, creating threads as needed. Dies
 * with a message if the OS refuses to create a thread. Any thread. */
void pool_acquire(struct worker **out, unsigned n);

/* Returns n workers that have finished their region to the pool. */
void pool_release(struct worker **w, unsigned n);

/* Ends every idle worker thread (omp_pause_resource) and frees what they
 * own; later regions create new threads. Returns once they have all exited.
 * Any thread outside a parallel region. */
void pool_retire_idle(void);

/* Hands a region to a worker taken from the pool. Only its owning master. */
void pool_dispatch(struct worker *w, struct team *t, unsigned team_id);

#endif
