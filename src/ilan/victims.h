/* victims.h — a thread's victim order over its team's locality groups (own group first, then the nearest), built once per team shape and kept per thread. */
#ifndef ILAN_ILAN_VICTIMS_H
#define ILAN_ILAN_VICTIMS_H

#include <stdbool.h>
#include "core/ws_steal.h"
#include "sched/loop_victims.h"

struct ilan_thread;
struct team;

/*
 * The calling thread ts's victims in its team (of at least 2 threads): in
 * locality order (its own group, then the others nearest first) when
 * `locality` and the team has ILAN groups, else one segment of every other
 * thread. Kept in the thread's cache for `user` (core/ws_steal.h) until
 * the team's size, its groups or the thread's slot change; valid until the
 * next call for the same user. Only ts itself, inside a region of its team.
 */
const struct loop_victims *ilan_victims(struct ilan_thread *ts, struct team *team, bool locality,
                                        enum victim_user user);

#endif
