/* bind.c — placing a team's threads on places (OpenMP 5.1 2.6.2) and pinning them, only when their place changes. */
#include "topo/bind.h"

#include <stdlib.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "core/team.h"
#include "core/thread.h"
#include "os/linux/affinity.h"
#include "topo/places.h"
#include "topo/topo.h"

/* ---- the assignment (pure) ------------------------------------------------- */

/* Runs of n threads over the P places of a partition, starting at the
 * master's place (relative position rel): place j (from the master's) gets
 * n/P threads, plus one for the first n%P places. single = each thread's
 * partition is its place (spread) rather than the parent's (close). */
static void bind_runs(int part_off, int P, int rel, unsigned n, bool single,
                      struct bind_slot *out)
{
    unsigned s = n / (unsigned)P, rest = n % (unsigned)P, i = 0;
    for (int j = 0; j < P && i < n; j++) {
        int place = part_off + (rel + j) % P;
        unsigned count = s + ((unsigned)j < rest);
        for (unsigned k = 0; k < count; k++, i++)
            out[i] = single ? (struct bind_slot){place, place, 1}
                            : (struct bind_slot){place, part_off, P};
    }
}

void bind_assign(unsigned kind, int part_off, int part_len, int master_place, unsigned n,
                 struct bind_slot *out)
{
    int P = part_len > 0 ? part_len : 1;
    int rel = master_place - part_off;
    if (rel < 0 || rel >= P)
        rel = 0;
    switch (kind) {
    case ICV_BIND_PRIMARY:
        for (unsigned i = 0; i < n; i++)
            out[i] = (struct bind_slot){master_place, part_off, P};
        return;
    case ICV_BIND_SPREAD:
        if (n > (unsigned)P) {
            bind_runs(part_off, P, rel, n, true, out);
            return;
        }
        {
            /* n sub-partitions; the first `rest` have s + 1 places. */
            int s = P / (int)n, rest = P % (int)n;
            int m = rel < rest * (s + 1) ? rel / (s + 1) : rest + (rel - rest * (s + 1)) / s;
            for (unsigned i = 0; i < n; i++) {
                int k = (m + (int)i) % (int)n;
                int off = part_off + k * s + (k < rest ? k : rest);
                int len = s + (k < rest);
                out[i] = (struct bind_slot){i == 0 ? master_place : off, off, len};
            }
        }
        return;
    default: /* CLOSE, and TRUE which ilan treats as close (as libgomp) */
        if (n > (unsigned)P) {
            bind_runs(part_off, P, rel, n, false, out);
            return;
        }
        for (unsigned i = 0; i < n; i++)
            out[i] = (struct bind_slot){part_off + (rel + (int)i) % P, part_off, P};
        return;
    }
}

/* ---- the mechanism ------------------------------------------------------------ */

void bind_thread_init(struct ilan_thread *ts)
{
    ts->place = -1;
    ts->part_off = 0;
    ts->part_len = 0;
    ts->bound_place = -1;
    ts->affinity_shown = false;
}

/* Pins the calling thread to place p's real CPUs; warns once on failure. */
static void bind_pin(struct ilan_thread *ts, int p)
{
    const struct place_list *r = &places.real;
    unsigned lo = r->first[p], hi = r->first[p + 1];
    if (os_thread_bind(r->cpus + lo, (int)(hi - lo)) != 0) {
        static _Atomic bool warned;
        if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
            ilan_warn("cannot bind a thread to place %d; threads may migrate", p);
    }
    ts->bound_place = p;
}

void bind_team_begin(struct ilan_thread *ts, struct team *t, unsigned n, unsigned proc_bind)
{
    unsigned kind = ts->icv.bind;
    if (kind == ICV_BIND_FALSE || places.os.n == 0) {
        t->bind_kind = 0;
        return;
    }
    if (proc_bind >= ICV_BIND_PRIMARY && proc_bind <= ICV_BIND_SPREAD)
        kind = proc_bind; /* the clause overrides bind-var for this region */
    if (kind == ICV_BIND_TRUE)
        kind = ICV_BIND_CLOSE;
    /* A thread that never had a place (the initial thread, a user thread)
     * takes the whole list as its partition and its first place, for good:
     * it is pinned there when it enters the team (bind_enter), not at
     * start-up, so that a program's own view of its CPU mask (and that of
     * the processes it starts) is untouched until it uses OpenMP. */
    if (ts->place < 0) {
        ts->part_off = 0;
        ts->part_len = (int)places.os.n;
        ts->place = 0;
    }
    int off = ts->part_off, len = ts->part_len, master = ts->place;
    const int key[5] = {(int)kind, (int)n, master, off, len};
    bool same = t->bind_kind != 0;
    for (int i = 0; i < 5 && same; i++)
        same = t->bind_key[i] == key[i];
    if (same)
        return; /* the hot team's usual case: same size, same master place */
    if (t->bind_cap < n) {
        struct bind_slot *grown = realloc(t->bind_slots, n * sizeof *grown);
        if (!grown)
            ilan_fatal("out of memory starting a parallel region of %u threads", n);
        t->bind_slots = grown;
        t->bind_cap = n;
    }
    bind_assign(kind, off, len, master, n, t->bind_slots);
    for (int i = 0; i < 5; i++)
        t->bind_key[i] = key[i];
    t->bind_kind = kind;
}

bool bind_enter(struct ilan_thread *ts, const struct team *t, unsigned team_id)
{
    const struct bind_slot *s = &t->bind_slots[team_id];
    ts->place = s->place;
    ts->part_off = s->part_off;
    ts->part_len = s->part_len;
    if (ts->bound_place == s->place)
        return false;
    bind_pin(ts, s->place);
    return true;
}

/* ---- scheduler queries ----------------------------------------------------- */

/* The team whose slots the queries describe: the caller's, or its hot team. */
static const struct team *bind_query_team(void)
{
    struct ilan_thread *ts = thread_self();
    return ts->team ? ts->team : ts->hot_team;
}

int topo_node_of_worker(int slot)
{
    const struct team *t = bind_query_team();
    if (!t || !t->bind_kind || slot < 0 || (unsigned)slot >= t->nthreads)
        return -1;
    return places.node[t->bind_slots[slot].place];
}

int topo_workers_of_node(int node, int *out, int max)
{
    const struct team *t = bind_query_team();
    int found = 0;
    if (!t || !t->bind_kind)
        return 0;
    for (unsigned i = 0; i < t->nthreads; i++)
        if (places.node[t->bind_slots[i].place] == node) {
            if (found < max)
                out[found] = (int)i;
            found++;
        }
    return found;
}
