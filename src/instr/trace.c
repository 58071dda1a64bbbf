/* trace.c — the trace ring buffers (one per thread, no lock on the way in) and the trace-event JSON file written from them. */
#include "instr/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "instr/ext.h"
#include "instr/report.h"
#include "os/linux/affinity.h"
#include "os/linux/symbols.h"
#include "os/linux/ticks.h"

/* One event: relaxed atomic words, so that the writer at exit may read a
 * buffer whose thread is still running (it then may see a torn event, never
 * undefined behaviour). */
struct trace_ev {
    _Atomic uint64_t start; /* os_ticks at the beginning */
    _Atomic uint64_t end;   /* os_ticks at the end (== start: an instant) */
    _Atomic uint64_t kind;  /* enum trace_kind */
    _Atomic uint64_t a;     /* arguments, by kind */
    _Atomic uint64_t b;
    _Atomic uint64_t c;
};

/* A thread's ring. */
struct trace_buf {
    _Atomic uint64_t written;          /* events recorded ever; the latest TRACE_EVENTS are kept */
    struct trace_ev ev[TRACE_EVENTS];  /* the ring */
};

static char *trace_path; /* ILAN_TRACE, expanded */

/* A thread's ring, its pages touched now (a thread's first event) rather
 * than one page fault per 85 events later, inside the measured run. */
static struct trace_buf *trace_buf_new(void)
{
    struct trace_buf *buf = calloc(1, sizeof *buf);
    for (size_t i = 0; buf && i < sizeof *buf; i += 4096)
        ((volatile char *)buf)[i] = 0; /* a write faults the page in */
    return buf;
}

void trace_setup(const char *path)
{
    trace_path = strdup(path);
    if (!trace_path) {
        ilan_warn("ILAN_TRACE: out of memory; no trace written");
        return;
    }
    instr_flags.trace = true;
    instr_ext_of(instr_me())->trace = trace_buf_new(); /* the initial thread's, before main */
    if (atexit(trace_write_now) != 0)
        ilan_warn("ILAN_TRACE: cannot arrange the trace; none will be written");
}

void trace_event(struct instr_thread *me, unsigned kind, uint64_t start, uint64_t end, uint64_t a,
                 uint64_t b, uint64_t c)
{
    struct instr_ext *x = instr_ext_of(me);
    struct trace_buf *buf = x->trace;
    if (__builtin_expect(!buf, 0) && !(buf = x->trace = trace_buf_new()))
        return; /* no memory: this thread's events are lost, the program goes on */
    uint64_t n = atomic_load_explicit(&buf->written, memory_order_relaxed);
    struct trace_ev *e = &buf->ev[n & (TRACE_EVENTS - 1)];
    atomic_store_explicit(&e->start, start, memory_order_relaxed);
    atomic_store_explicit(&e->end, end, memory_order_relaxed);
    atomic_store_explicit(&e->kind, kind, memory_order_relaxed);
    atomic_store_explicit(&e->a, a, memory_order_relaxed);
    atomic_store_explicit(&e->b, b, memory_order_relaxed);
    atomic_store_explicit(&e->c, c, memory_order_relaxed);
    atomic_store_explicit(&buf->written, n + 1, memory_order_release);
}

/* ---- the file -------------------------------------------------------------------------- */

static const char *const state_names[] = {
#define INSTR_X(name, what) #name,
    INSTR_STATES(INSTR_X)
#undef INSTR_X
};

/* A microsecond timestamp of ticks t, relative to the start. */
static double us_of(uint64_t t)
{
    return os_ticks_since_start_ns(t) * 1e-3;
}

/* The function name of fn (or its address) as a JSON string. */
static void fn_name(FILE *f, uint64_t fn)
{
    char name[256], module[512];
    unsigned long off;
    if (!os_symbol_name((const void *)(uintptr_t)fn, name, sizeof name, module, sizeof module, &off))
        snprintf(name, sizeof name, "%p", (void *)(uintptr_t)fn);
    fputc('"', f);
    for (const char *s = name; *s; s++)
        if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
            fputc('?', f);
        else
            fputc(*s, f);
    fputc('"', f);
}

/* One event as a trace-event object. */
static void write_event(FILE *f, long pid, unsigned tid, const struct trace_ev *e, bool *first)
{
    uint64_t kind = atomic_load_explicit(&e->kind, memory_order_relaxed);
    uint64_t s = atomic_load_explicit(&e->start, memory_order_relaxed);
    uint64_t t = atomic_load_explicit(&e->end, memory_order_relaxed);
    uint64_t a = atomic_load_explicit(&e->a, memory_order_relaxed);
    uint64_t b = atomic_load_explicit(&e->b, memory_order_relaxed);
    uint64_t c = atomic_load_explicit(&e->c, memory_order_relaxed);
    if (t < s)
        return; /* torn (written while we read) */
    fputs(*first ? "\n" : ",\n", f);
    *first = false;
    double ts = us_of(s), dur = us_of(t) - ts;
    if (kind < TRACE_REGION) {
        fprintf(f, "{\"name\": \"%s\", \"cat\": \"state\", \"ph\": \"X\", \"ts\": %.3f, "
                   "\"dur\": %.3f, \"pid\": %ld, \"tid\": %u}",
                kind < INSTR_NSTATES ? state_names[kind] : "?", ts, dur,
                pid, tid);
        return;
    }
    switch (kind) {
    case TRACE_REGION:
    case TRACE_TASKLOOP:
        fprintf(f, "{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, "
                   "\"dur\": %.3f, \"pid\": %ld, \"tid\": %u, \"args\": {\"fn\": ",
                kind == TRACE_REGION ? "parallel" : "taskloop",
                kind == TRACE_REGION ? "region" : "taskloop", ts, dur, pid, tid);
        fn_name(f, a);
        if (kind == TRACE_REGION && b)
            fputs(", \"help\": true", f); /* a worker back for the region's tasks */
        if (kind == TRACE_TASKLOOP) {
            fprintf(f, ", \"tasks\": %llu", (unsigned long long)b);
            if (c >> 63)
                fprintf(f, ", \"groups\": %u, \"workers\": %u, \"steal\": \"%s\"",
                        (unsigned)(c >> 24 & 0xffffffu), (unsigned)(c & 0xffffffu),
                        (c >> 62 & 1) ? "full" : "strict");
        }
        fputs("}}", f);
        return;
    case TRACE_STEAL:
        fprintf(f, "{\"name\": \"steal\", \"cat\": \"steal\", \"ph\": \"i\", \"s\": \"t\", "
                   "\"ts\": %.3f, \"pid\": %ld, \"tid\": %u, \"args\": {\"from\": %llu, "
                   "\"remote\": %s}}",
                ts, pid, tid, (unsigned long long)a, b ? "true" : "false");
        return;
    default: /* TRACE_OS */
        fprintf(f, "{\"name\": \"os\", \"cat\": \"os\", \"ph\": \"i\", \"s\": \"t\", "
                   "\"ts\": %.3f, \"pid\": %ld, \"tid\": %u, \"args\": {\"context_switches\": "
                   "%llu, \"cpu_migrations\": %llu, \"descheduled_us\": %.3f}}",
                ts, pid, tid, (unsigned long long)(a >> 32), (unsigned long long)(a & 0xffffffffu),
                instr_descheduled_ns(b, c) * 1e-3);
        return;
    }
}

/* The trace file's contents: every thread's kept events, oldest first, a
 * name per thread track, and how many events were dropped. */
static void write_trace(FILE *f)
{
    long pid = os_process_id();
    unsigned long long dropped = 0;
    bool first = true;
    fputs("{\"traceEvents\": [", f);
    for (struct instr_thread *t = instr_threads(); t;
         t = atomic_load_explicit(&t->next, memory_order_relaxed)) {
        fprintf(f, "%s\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %ld, \"tid\": %u, "
                   "\"args\": {\"name\": \"ilan thread %u (tid %ld)\"}}",
                first ? "" : ",", pid, t->id, t->id, t->tid);
        first = false;
        struct trace_buf *buf = t->ext ? t->ext->trace : NULL;
        if (!buf)
            continue;
        uint64_t n = atomic_load_explicit(&buf->written, memory_order_acquire);
        uint64_t from = n > TRACE_EVENTS ? n - TRACE_EVENTS : 0;
        dropped += from;
        for (uint64_t i = from; i < n; i++)
            write_event(f, pid, t->id, &buf->ev[i & (TRACE_EVENTS - 1)], &first);
    }
    fprintf(f, "\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"ilan_version\": \"%s\", "
               "\"clock\": \"%s\", \"task_sampling\": %u, \"dropped_events\": %llu}}\n",
            ILAN_VERSION_STRING, os_ticks_source(), instr_flags.task_every, dropped);
    if (dropped)
        ilan_warn("ILAN_TRACE: %llu oldest events dropped (buffers of %u events per thread)",
                  dropped, TRACE_EVENTS);
}

void trace_write_now(void)
{
    if (trace_path)
        report_file_write("ILAN_TRACE", "trace", trace_path, write_trace);
}
