/* ordered.h — the ordered token of a loop's chunks, and doacross records. */
#ifndef ILAN_CONSTRUCT_ORDERED_H
#define ILAN_CONSTRUCT_ORDERED_H

#include <stddef.h>
#include "core/thread.h"
#include "core/ws_loop.h"

/* Bytes of the wake words an ordered loop of nthreads needs (in the
 * slot's buffer), and their set-up in l. The slot's initializer. */
size_t ordered_space(unsigned nthreads);
void ordered_setup(struct ws_loop *l, void *waiters);

/* GOMP_ordered_start: waits until the caller's chunk holds the token. */
void ordered_start(struct ilan_thread *ts);

/* Passes the token on after the caller's chunk (its next claim or the
 * loop's end). */
void ordered_release(struct ilan_thread *ts);

/* Bytes of doacross bookkeeping a loop nest needs, and its set-up in l
 * (counts already converted to logical iterations). The slot's initializer. */
size_t doacross_space(unsigned ncounts, const iter_ull *counts, int sched, iter_ull chunk,
                      unsigned nthreads);
void doacross_setup(struct ws_loop *l, void *space, unsigned ncounts, const iter_ull *counts,
                    unsigned nthreads);

/* The doacross bookkeeping of the caller's current loop; NULL when it is
 * not a doacross loop (or the team is one thread). */
struct doacross *doacross_of_caller(void);

/* GOMP_doacross_post / _wait on the iteration vector v (d->ncounts
 * entries, logical; a wait on a vector outside the space returns at once). */
void doacross_post(struct doacross *d, const iter_ull *v);
void doacross_wait(struct doacross *d, const iter_ull *v);

#endif
