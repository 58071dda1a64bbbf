/* loop.h — the worksharing-loop construct that the loop, sections, scope and ordered entry points share. */
#ifndef ILAN_CONSTRUCT_LOOP_H
#define ILAN_CONSTRUCT_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/thread.h"
#include "core/ws.h"
#include "core/ws_loop.h"

/* Everything that defines one worksharing loop, as its initializer sees it. */
struct loop_desc {
    int sched;              /* enum icv_sched, resolved (no runtime), monotonic bit allowed */
    iter_ull chunk;         /* chunk as given; (long long) <= 0 means the default */
    iter_ull n;             /* logical iterations */
    iter_ull start;         /* first value (bits) */
    iter_ull end;           /* end value as given (bits) */
    iter_ull incr;          /* increment (bits) */
    bool ull;               /* unsigned long long iteration variable */
    bool ordered;           /* ordered clause: set up the token protocol */
    bool sections;          /* a sections construct (cancelled by `cancel sections`) */
    bool want_mem;          /* GOMP_*_start got a `mem` argument */
    size_t mem_size;        /* bytes of scratch memory it asked for */
    unsigned ncounts;       /* doacross: dimensions (0: not doacross) */
    const iter_ull *counts; /* doacross: iterations per dimension (already converted) */
    uintptr_t *reductions;  /* reduction(task, ...) data of the calling thread, or NULL */
    const void *site;       /* the loop's identity: the return address of its start call, or
                               a combined parallel loop's function (NULL: none, sections) */
};

/* A loop's identity (loop_desc site), written in the exported GOMP entry
 * point itself: the return address into the program's outlined body. */
#define LOOP_SITE ((const void *)__builtin_return_address(0))

/* Fills the slot's loop state from d for a team of nthreads. The
 * initializer of a slot calls it before publishing; team_begin_with_ws
 * calls it (through loop_init_ws) for combined parallel loops. */
void loop_init_slot(struct ws *w, const struct loop_desc *d, unsigned nthreads);

/* team_begin_with_ws callback: arg is a struct loop_desc. */
void loop_init_ws(struct ws *w, void *arg, unsigned nthreads);

/* Starts the calling thread's part in the loop d: enters (and when first,
 * initializes) the construct's slot, or a thread-private slot outside any
 * parallel region. Returns the slot, also stored in ts->ws. *mem, when
 * mem is non-NULL, receives the construct's shared scratch block. With
 * d->reductions, also begins the thread's taskgroup of the construct and
 * registers its task reductions (construct/task_reduction.h). */
struct ws *loop_start(struct ilan_thread *ts, const struct loop_desc *d, void **mem);

/* The calling thread's next chunk of its current loop, as logical bounds.
 * Passes on the ordered token of the previous chunk first. False when no
 * work is left (or the construct was cancelled). */
bool loop_claim(struct ilan_thread *ts, iter_ull *lb, iter_ull *le);

/* GOMP_loop_end / _nowait / _cancel for every loop-like construct. */
void loop_end(void);
void loop_end_nowait(void);
bool loop_end_cancel(void);

/* Resolves schedule(runtime) from the calling task's run-sched-var
 * (construct/loop_pick.h); `may_reorder`: the entry point allows a
 * nonmonotonic schedule (not monotonic:runtime, ordered or doacross). */
void loop_runtime_sched(struct ilan_thread *ts, bool may_reorder, int *sched, iter_ull *chunk);

/* Resolves GOMP_loop_start's `sched` argument (0 runtime, 4 auto = runtime
 * nonmonotonic, monotonic bit 0x80000000 allowed); `may_reorder` false for
 * ordered and doacross loops. Plain (nonmonotonic) dynamic becomes
 * adaptive. */
void loop_adjust_sched(struct ilan_thread *ts, long sched, bool may_reorder, int *out_sched,
                       iter_ull *chunk);

#include "construct/ordered.h"

#endif
