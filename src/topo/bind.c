/* bind.c — placing a team's threads on places (OpenMP 5.1 2.6.2) and pinning them, only when their place changes. */
#include "topo/bind.h"

#include <stdatomic.h>
#include <stdlib.h>
#include "base/fatal.h"
#include "config/icv.h"
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

/* The calling thread's node as bind_enter last set it (-1: never bound);
 * what memory placement reads for "this thread's node" (mem/place.c). */
static __thread int bind_node = -1;

int bind_self_node(void)
{
    return bind_node;
}

void bind_thread_init(struct bind_thread *b)
{
    b->place = -1;
    b->part_off = 0;
    b->part_len = 0;
    b->bound_place = -1;
}

/* Pins the calling thread to place p's real CPUs; warns once on failure. */
static void bind_pin(struct bind_thread *b, int p)
{
    const struct place_list *r = &places.real;
    unsigned lo = r->first[p], hi = r->first[p + 1];
    if (os_thread_bind(r->cpus + lo, (int)(hi - lo)) != 0) {
        static _Atomic bool warned;
        if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
            ilan_warn("cannot bind a thread to place %d; threads may migrate", p);
    }
    b->bound_place = p;
}

/* Makes room for n slots in tb. */
static void bind_slots_reserve(struct bind_team *tb, unsigned n)
{
    if (tb->cap >= n)
        return;
    struct bind_slot *grown = realloc(tb->slots, n * sizeof *grown);
    if (!grown)
        ilan_fatal("out of memory starting a parallel region of %u threads", n);
    tb->slots = grown;
    tb->cap = n;
}

void bind_team_begin(struct bind_team *tb, struct bind_thread *master, unsigned bind_var, unsigned n,
                     unsigned proc_bind)
{
    unsigned kind = bind_var;
    if (kind == ICV_BIND_FALSE || places.os.n == 0) {
        tb->kind = 0;
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
    if (master->place < 0) {
        master->part_off = 0;
        master->part_len = (int)places.os.n;
        master->place = 0;
    }
    int off = master->part_off, len = master->part_len, at = master->place;
    const int key[5] = {(int)kind, (int)n, at, off, len};
    bool same = tb->kind != 0;
    for (int i = 0; i < 5 && same; i++)
        same = tb->key[i] == key[i];
    if (same)
        return; /* the hot team's usual case: same size, same master place */
    bind_slots_reserve(tb, n);
    bind_assign(kind, off, len, at, n, tb->slots);
    for (int i = 0; i < 5; i++)
        tb->key[i] = key[i];
    tb->kind = kind;
}

bool bind_enter(struct bind_thread *b, const struct bind_team *tb, unsigned team_id)
{
    const struct bind_slot *s = &tb->slots[team_id];
    b->place = s->place;
    b->part_off = s->part_off;
    b->part_len = s->part_len;
    bind_node = places.node ? places.node[s->place] : -1;
    if (b->bound_place == s->place)
        return false;
    bind_pin(b, s->place);
    return true;
}

void bind_team_set(struct bind_team *tb, unsigned n, const int *place)
{
    bind_slots_reserve(tb, n);
    for (unsigned i = 0; i < n; i++)
        tb->slots[i] = (struct bind_slot){place[i], place[i], 1};
    tb->key[0] = -1; /* matches no policy: bind_team_begin assigns again */
    tb->kind = ICV_BIND_CLOSE;
}

void bind_team_free(struct bind_team *tb)
{
    free(tb->slots);
    tb->slots = NULL;
    tb->cap = 0;
    tb->kind = 0;
}
