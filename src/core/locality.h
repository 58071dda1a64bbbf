/* locality.h — the locality domains of the current parallel region (seed 001 section 3.2): the NUMA nodes holding its threads, and the calling thread's. */
#ifndef ILAN_CORE_LOCALITY_H
#define ILAN_CORE_LOCALITY_H

#include "sched/mem_plan.h"

/*
 * The domains of the calling thread's region: inside a team whose threads
 * are bound, the nodes of their places (increasing), each weighted by its
 * threads; outside every parallel region, or when the team's threads are
 * not bound (their nodes are the OS's choice), the nodes of the machine
 * model, each weighted by its cores (where a bound team of one thread per
 * core would put its threads).
 */
void locality_domains(struct mem_domains *out);

/* The calling thread's domain: the index of its node in
 * locality_domains(); -1 when its node holds none of the region's. */
int locality_domain_num(void);

/* The model node of team thread `thread_num` of the calling thread's team
 * (its place's node); -1 when there is no such thread or it has no place
 * (the calling thread itself then answers with the node it runs on). */
int locality_thread_node(int thread_num);

#endif
