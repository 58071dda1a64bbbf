/* move.h — moving memory the program already has: to a node now, near a thread (and after it when it moves), or on next touch. */
#ifndef ILAN_MEM_MOVE_H
#define ILAN_MEM_MOVE_H

#include <stddef.h>
#include "mem/record.h"

/* Moves the pages of [p, p + size) (rounded out to pages) that are in
 * memory to model node `node` (simulated: records it). Returns 0 or an
 * errno value (EINVAL: bad range or node). */
int mem_migrate(void *p, size_t size, int node);

/*
 * Places [p, p + size) on model node `node`, the node of thread `owner`,
 * and remembers it: whenever mem_follow(owner, n)
 * reports the thread on another node, the range moves there too. Returns
 * 0 or an errno value.
 */
int mem_attach(void *p, size_t size, struct mem_owner owner, int node);

/* Thread `owner` now runs on model node `node`: moves its attached ranges
 * there. Cheap when nothing was ever attached (one relaxed load). */
void mem_follow(struct mem_owner owner, int node);

/* Moves every range attached to owner (a whole team, MEM_OWNER_TEAM) so
 * that it is laid out bloc-wise over d; returns the pages moved. */
size_t mem_follow_domains(struct mem_owner owner, const struct mem_domains *d);

#endif
