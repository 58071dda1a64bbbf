/* place.h — carrying placement plans out (mbind, move_pages) or, on a what-if machine, only recording them; and asking where pages are. */
#ifndef ILAN_MEM_PLACE_H
#define ILAN_MEM_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "sched/mem_plan.h"

/* True when placements are recorded instead of applied: the machine model
 * is a what-if machine (HWLOC_SYNTHETIC / HWLOC_XMLFILE), whose node
 * numbers are not the kernel's. Queries then answer from the record. */
bool mem_simulated(void);

/* The system's page size: the unit of every plan. */
size_t mem_page(void);

/* The model node of the calling thread: its place's node when it is
 * bound, else that of the CPU it runs on now. Async-signal-safe. */
int mem_self_node(void);

/*
 * Carries plan p out on pages never touched yet (a fresh ilan mapping):
 * each run's pages get a binding policy to its node (mbind), so that
 * whoever touches them first allocates them there. Simulated: nothing is
 * applied. Returns 0 or an errno value.
 */
int mem_place_fresh(const struct mem_plan *p);

/*
 * Moves the pages of plan p that are in memory to their nodes
 * (move_pages); pages never touched stay untouched. Simulated: nothing
 * moves. Async-signal-safe (used by next-touch). Returns 0 or an errno
 * value.
 */
int mem_place_move(const struct mem_plan *p);

/* Adds pages to the report's counts: placed (applied or recorded) and moved. */
void mem_count_placed(size_t pages);

/* The model's number of kernel node k; -1 when the model lacks it. */
int mem_model_node(int k);

/* Pages placed so far (applied or recorded). */
unsigned long mem_pages_placed_count(void);

#endif
