/* trace.h — ILAN_TRACE: per-thread ring buffers of timeline events, written at exit as a Chrome/Perfetto trace-event JSON file. */
#ifndef ILAN_INSTR_TRACE_H
#define ILAN_INSTR_TRACE_H

#include <stdint.h>
#include <stdbool.h>
#include "instr/thread.h"

/* Event kinds: a state's slice (TRACE_STATE + enum instr_state), then the rest. */
enum trace_kind {
    TRACE_STATE = 0,     /* + state: a slice of that state (task, create, waits, sleep) */
    TRACE_REGION = 32,   /* a parallel region: a = its function, b = 1: a worker's return to
                            help with its tasks (team_help) */
    TRACE_TASKLOOP = 33, /* a taskloop: a = its function, b = tasks, c = configuration */
    TRACE_STEAL = 34,    /* instant: a task stolen from slot a (b: from another group) */
    TRACE_OS = 35,       /* instant at a region's end, for the region: a = context switches
                            << 32 | migrations, b = ns off the CPU, c = ticks asleep */
};

/* Ring buffer size per thread, in events (a power of two). */
#define TRACE_EVENTS (1u << 16)

/* Tracing to `path` (ILAN_TRACE, already expanded): arms the writing at
 * exit. Once, at start-up, after instr_init. */
void trace_setup(const char *path);

/* Records an event of the calling thread `me` (never blocks, never
 * locks): a slice [start, end] or an instant (start == end), in os_ticks,
 * with arguments a, b, c by kind. When the buffer is full the oldest event
 * is overwritten (and counted as dropped). */
void trace_event(struct instr_thread *me, unsigned kind, uint64_t start, uint64_t end, uint64_t a,
                 uint64_t b, uint64_t c);

/* Writes the trace file now with what the buffers hold (exit, and
 * omp_pause_resource_all); nothing when not tracing. */
void trace_write_now(void);

/* Packs an ILAN configuration for TRACE_TASKLOOP's argument c. */
static inline uint64_t trace_pack_config(unsigned groups, unsigned workers, bool full)
{
    return 1ull << 63 | (uint64_t)full << 62 | (uint64_t)(groups & 0xffffffu) << 24 |
           (workers & 0xffffffu);
}

#endif
