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

/*
 * Counts the pages of [addr, addr + size) (rounded out to pages) per model
 * node into per_node[0..max_nodes-1] (zeroed first): on the real machine
 * where the kernel has them (move_pages), a page not yet in memory counting
 * at the node an ilan allocation's policy will put it, or not at all;
 * simulated, where the newest record (or next-touch move) put it, pages
 * ilan never placed not counted. Returns the nodes reported
 * (min(nodes, max_nodes)) or -1 with an errno value in *err.
 */
int mem_query(const void *addr, size_t size, size_t *per_node, int max_nodes, int *err);

/* Adds pages to the report's counts: placed (applied or recorded) and moved. */
void mem_count_placed(size_t pages);

/* Writes the report's "memory" object (one JSON member, trailing comma). */
void mem_report_json(FILE *f);

#endif
