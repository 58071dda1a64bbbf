/* query.h — where the pages of a range are (the kernel's answer, or the record's on a what-if machine), and the report's memory section. */
#ifndef ILAN_MEM_QUERY_H
#define ILAN_MEM_QUERY_H

#include <stddef.h>
#include <stdio.h>

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

/* Writes the report's "memory" object (one JSON member, trailing comma). */
void mem_report_json(FILE *f);

#endif
