/* data.h — data-aware taskloops: the array a taskloop registered (ilan_taskloop_data), the node holding each task's share of it, the groups pinned to those nodes, and the count of tasks that ran there. */
#ifndef ILAN_ILAN_DATA_H
#define ILAN_ILAN_DATA_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "sched/iter.h"
#include "sched/taskloop_split.h"

struct team_ilan;
struct task;

/* One execution's view of its registered array: read-only after
 * ilan_data_new except the count. Task i's share is the bytes
 * [offset(i) * size / n, offset(i + 1) * size / n): iteration k of n maps
 * onto byte k * size / n (the array is iterated over bloc-wise). */
struct ilan_data {
    const void *array;          /* the registered array */
    size_t size;                /* its bytes */
    iter_ull ntasks;            /* tasks of the execution */
    iter_ull start, step;       /* the loop's first value and step (bits), to find a
                                   descriptor task's number from its bounds */
    struct taskloop_split split; /* how the execution cut its iterations */
    _Atomic unsigned long on_node; /* tasks that ran on the node holding their share */
    short *task_node;           /* [ntasks] the model node holding most of task i's share
                                   (-1: none of its pages placed or known) */
};

/* The map of array [p, p + size) for an execution cut by *split, or NULL
 * when p is NULL. Queries the pages of each task's share now (the record
 * on a what-if machine, move_pages on the real one). Freed with
 * ilan_data_free. */
struct ilan_data *ilan_data_new(const void *p, size_t size, const struct taskloop_split *split,
                                iter_ull start, iter_ull step);

void ilan_data_free(struct ilan_data *d);

/*
 * Pins a configuration to the data's nodes: writes into ids[] (increasing)
 * the groups of ti whose node holds pages of [p, p + size) and returns how
 * many; 0 when no group qualifies (groups without a known node, data on no
 * group's node): the caller then keeps its own choice.
 */
unsigned ilan_data_groups(const void *p, size_t size, const struct team_ilan *ti, unsigned *ids);

/* The calling thread ran task i of d: counts it when it runs on the node
 * holding the task's share (mem_self_node). */
void ilan_data_ran(struct ilan_data *d, iter_ull i);

/* The same for a descriptor task t (per-task launch): its number from the
 * bounds in its argument block. */
void ilan_data_ran_task(struct ilan_data *d, const struct task *t);

/* Totals over the process: executions with a registered array, their
 * tasks, and those that ran on the node holding their share. */
struct ilan_data_totals {
    unsigned long runs;    /* executions with a registered array */
    unsigned long tasks;   /* their tasks */
    unsigned long on_node; /* of which ran on the node holding their share */
};
void ilan_data_totals(struct ilan_data_totals *out);

/* Adds one finished execution to the totals. */
void ilan_data_account(const struct ilan_data *d);

#endif
