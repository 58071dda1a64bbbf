/* task_deps.h — task dependences: per-parent hash of addresses, predecessor counts, release. */
#ifndef ILAN_CORE_TASK_DEPS_H
#define ILAN_CORE_TASK_DEPS_H

#include <stdbool.h>
#include "core/task_desc.h"

struct ilan_thread;

/* Registers the dependences of t (a new child of parent, not yet visible to
 * any other thread) from gcc's depend array. Returns true when t has no
 * incomplete predecessor; otherwise the completion of its last predecessor
 * queues it (or, for a TASK_UNDEFERRED task, only drops npred to 0 for its
 * waiting creator). */
bool task_deps_register(struct ilan_thread *ts, struct task *parent, struct task *t,
                        void **depend);

/* At t's completion: removes t from its parent's hash and releases its
 * successors (queueing those that become ready). */
void task_deps_release(struct ilan_thread *ts, struct task *t);

/* Frees t's (empty) hash of children's dependences. */
void task_deps_destroy(struct task *t);

#endif
