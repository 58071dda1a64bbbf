// task_depend.c - task dependences.  Random task graphs over shared slots
// with in/out/inout/mutexinoutset (gcc 12's C front end has no `inoutset`;
// the replay knows its rule for when it does): every task checks at its start
// that all the sibling tasks it must follow (by the OpenMP 5.1 rules,
// computed by a serial replay) have finished, mutexinoutset tasks on a slot
// never overlap, and the values read and left in the slots equal the serial
// replay.  Also depobj, depend(iterator(...)), array sections, dependences
// among the children of a task, undeferred (if(0)) tasks depending on
// deferred ones, and taskwait depend(...) (GOMP_taskwait_depend).
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"
#include <sched.h>

#define PRAGMA(x) _Pragma(#x)

enum { K_IN, K_OUT, K_INOUT, K_MUTEX, K_INOUTSET };
#define NKINDS 4 /* kinds generated: gcc 12 rejects depend(inoutset: ...) */
static const char *kname[] = {"in", "out", "inout", "mutexinoutset", "inoutset"};

#define NSLOTS 6
#define MAXT 160
#define MAXD 2

struct tdesc {
    int nd;
    int slot[MAXD];
    int kind[MAXD];
    int spin;              /* work inside the task */
    int npred;
    int pred[MAXT];        /* tasks that must have finished before this one */
};

static struct tdesc td[MAXT];
static int ntasks;
static unsigned long slotv[NSLOTS];       /* the shared data */
static unsigned long want_read[MAXT][MAXD];
static unsigned long got_read[MAXT][MAXD];
static unsigned long want_final[NSLOTS];
static int done[MAXT];
static long start_stamp[MAXT], end_stamp[MAXT];
static long stamp;
static int pred_missing;

static unsigned long rng = 88172645463325252UL;
static unsigned long xr(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Must j (later) follow i (earlier) when j has kind kj and i has ki on the
 * same slot?  OpenMP 5.1, 2.19.11. */
static int must_follow(int kj, int ki)
{
    switch (kj) {
    case K_IN: return ki != K_IN;
    case K_OUT:
    case K_INOUT: return 1;
    case K_MUTEX: return ki != K_MUTEX; /* mutexinoutset siblings: exclusion only */
    case K_INOUTSET: return ki != K_INOUTSET;
    }
    return 1;
}

/* The effect of one dependence on the slot's value; order-independent
 * within a set of mutexinoutset or of inoutset tasks (additions). */
static void apply(int t, int d, unsigned long *v, int atomic)
{
    int s = td[t].slot[d];
    switch (td[t].kind[d]) {
    case K_IN: break;
    case K_OUT: v[s] = 1000003UL * (unsigned long)(t + 1); break;
    case K_INOUT: v[s] = v[s] * 31UL + (unsigned long)t; break;
    case K_MUTEX: v[s] += 7UL * (unsigned long)t + 1; break;
    case K_INOUTSET:
        if (atomic)
            __atomic_add_fetch(&v[s], 5UL * (unsigned long)t + 3, __ATOMIC_RELAXED);
        else
            v[s] += 5UL * (unsigned long)t + 3;
        break;
    }
}

static void make_graph(int n)
{
    ntasks = n;
    for (int t = 0; t < n; t++) {
        struct tdesc *d = &td[t];
        d->nd = 1 + (int)(xr() % MAXD);
        d->slot[0] = (int)(xr() % NSLOTS);
        if (d->nd == 2) {
            do d->slot[1] = (int)(xr() % NSLOTS);
            while (d->slot[1] == d->slot[0]);
        }
        for (int k = 0; k < d->nd; k++) d->kind[k] = (int)(xr() % NKINDS);
        d->spin = (int)(xr() % 200);
        d->npred = 0;
        for (int i = 0; i < t; i++) {
            int need = 0;
            for (int a = 0; a < d->nd; a++)
                for (int b = 0; b < td[i].nd; b++)
                    if (d->slot[a] == td[i].slot[b] && must_follow(d->kind[a], td[i].kind[b]))
                        need = 1;
            if (need)
                d->pred[d->npred++] = i;
        }
    }
    /* serial replay: values each `in`/read sees and the final values */
    unsigned long v[NSLOTS];
    for (int s = 0; s < NSLOTS; s++) v[s] = (unsigned long)s;
    for (int t = 0; t < n; t++) {
        for (int k = 0; k < td[t].nd; k++) want_read[t][k] = v[td[t].slot[k]];
        for (int k = 0; k < td[t].nd; k++) apply(t, k, v, 0);
    }
    memcpy(want_final, v, sizeof v);
}

static void body(int t)
{
    start_stamp[t] = __atomic_fetch_add(&stamp, 1, __ATOMIC_ACQ_REL);
    for (int p = 0; p < td[t].npred; p++)
        if (!__atomic_load_n(&done[td[t].pred[p]], __ATOMIC_ACQUIRE))
            __atomic_add_fetch(&pred_missing, 1, __ATOMIC_RELAXED);
    for (int k = 0; k < td[t].nd; k++)
        if (td[t].kind[k] == K_IN)
            got_read[t][k] = slotv[td[t].slot[k]];
        else
            got_read[t][k] = want_read[t][k]; /* only `in` reads are compared */
    for (volatile int i = 0; i < td[t].spin; i++) {}
    for (int k = 0; k < td[t].nd; k++) apply(t, k, slotv, 1);
    end_stamp[t] = __atomic_fetch_add(&stamp, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&done[t], 1, __ATOMIC_RELEASE);
}

/* One depend clause per kind; K1/K2 are kind indexes, D1/D2 the keywords. */
#define T1(K1, D1)                                                                \
    case K1:                                                                      \
        PRAGMA(omp task firstprivate(t) depend(D1 : slotv[s0])) body(t);          \
        break;
#define T2(K1, D1, K2, D2)                                                        \
    case K1 * NKINDS + K2:                                                        \
        PRAGMA(omp task firstprivate(t) depend(D1 : slotv[s0]) depend(D2 : slotv[s1])) \
        body(t);                                                                  \
        break;
#define ROW(K1, D1)                                                               \
    T2(K1, D1, K_IN, in) T2(K1, D1, K_OUT, out) T2(K1, D1, K_INOUT, inout)       \
    T2(K1, D1, K_MUTEX, mutexinoutset)

static void spawn(int t)
{
    int s0 = td[t].slot[0], s1 = td[t].slot[td[t].nd - 1];
    (void)s1;
    if (td[t].nd == 1) {
        switch (td[t].kind[0]) {
            T1(K_IN, in) T1(K_OUT, out) T1(K_INOUT, inout) T1(K_MUTEX, mutexinoutset)
        }
    } else {
        switch (td[t].kind[0] * NKINDS + td[t].kind[1]) {
            ROW(K_IN, in) ROW(K_OUT, out) ROW(K_INOUT, inout) ROW(K_MUTEX, mutexinoutset)
        }
    }
}

static void reset_run(void)
{
    for (int s = 0; s < NSLOTS; s++) slotv[s] = (unsigned long)s;
    memset(done, 0, sizeof done);
    stamp = 0;
    pred_missing = 0;
}

static void check_run(const char *how, int g)
{
    CHECK(pred_missing == 0, "%s graph %d: %d predecessor(s) not finished at a task's start",
          how, g, pred_missing);
    for (int t = 0; t < ntasks; t++) {
        CHECK(done[t], "%s graph %d: task %d never ran", how, g, t);
        for (int p = 0; p < td[t].npred; p++)
            CHECK(end_stamp[td[t].pred[p]] < start_stamp[t],
                  "%s graph %d: task %d started before its predecessor %d ended", how, g, t,
                  td[t].pred[p]);
        for (int k = 0; k < td[t].nd; k++)
            CHECK(got_read[t][k] == want_read[t][k],
                  "%s graph %d: task %d read slot %d (%s) = %lu, serial replay %lu", how, g, t,
                  td[t].slot[k], kname[td[t].kind[k]], got_read[t][k], want_read[t][k]);
        /* mutexinoutset tasks on a common slot never overlap */
        for (int u = 0; u < t; u++)
            for (int a = 0; a < td[t].nd; a++)
                for (int b = 0; b < td[u].nd; b++)
                    if (td[t].kind[a] == K_MUTEX && td[u].kind[b] == K_MUTEX &&
                        td[t].slot[a] == td[u].slot[b])
                        CHECK(end_stamp[u] < start_stamp[t] || end_stamp[t] < start_stamp[u],
                              "%s graph %d: mutexinoutset tasks %d and %d overlapped", how, g,
                              u, t);
    }
    for (int s = 0; s < NSLOTS; s++)
        CHECK(slotv[s] == want_final[s], "%s graph %d: slot %d = %lu, serial replay %lu", how,
              g, s, slotv[s], want_final[s]);
}

static void random_graphs(void)
{
#ifdef __SANITIZE_THREAD__
    int graphs = 6;
#else
    int graphs = 30;
#endif
    for (int g = 0; g < graphs; g++) {
        make_graph(40 + (int)(xr() % (MAXT - 40)));
        /* created by the single thread; completed by the end of single */
        reset_run();
#pragma omp parallel
#pragma omp single
        for (int t = 0; t < ntasks; t++) spawn(t);
        check_run("single", g);

        /* created by one task: the tasks are its children, taskwait ends them */
        reset_run();
#pragma omp parallel
#pragma omp single
#pragma omp task
        {
            for (int t = 0; t < ntasks; t++) spawn(t);
#pragma omp taskwait
            for (int t = 0; t < ntasks; t++)
                CHECK(__atomic_load_n(&done[t], __ATOMIC_ACQUIRE), "task %d not done at taskwait", t);
        }
        check_run("in a task", g);
    }
}

/* depobj objects and depend(iterator(...)), mixed with plain clauses. */
static void depobj_iterator(void)
{
    int a[8] = {0};
    int bad = 0;
    omp_depend_t oa, ob;
#pragma omp depobj(oa) depend(inout : a[0])
#pragma omp depobj(ob) depend(in : a[0])
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 100; r++) {
#pragma omp task depend(depobj : oa) shared(a) firstprivate(r)
        a[0] += r + 1; /* writer through a depobj */
#pragma omp task depend(depobj : ob) shared(a, bad) firstprivate(r)
        if (a[0] != (r + 1) * (r + 2) / 2)
#pragma omp atomic
            bad++;
        /* a plain inout after the depobj `in`: must wait for the reader */
#pragma omp task depend(inout : a[0]) shared(a)
        {
            a[0] += 1000000;
            for (volatile int k = 0; k < 100; k++) {}
            a[0] -= 1000000;
        }
        /* one task writes all of a[1..7], then each is read */
#pragma omp task depend(iterator(i = 1 : 8), out : a[i]) shared(a) firstprivate(r)
        for (int i = 1; i < 8; i++) a[i] = r * i;
        for (int i = 1; i < 8; i++) {
#pragma omp task depend(in : a[i]) shared(a, bad) firstprivate(i, r)
            if (a[i] != r * i)
#pragma omp atomic
                bad++;
        }
    }
#pragma omp depobj(oa) update(in)
#pragma omp depobj(oa) destroy
#pragma omp depobj(ob) destroy
    CHECK(bad == 0, "%d tasks saw values their depobj/iterator dependences should order", bad);
    CHECK(a[0] == 100 * 101 / 2, "depobj writer chain left %d, want %d", a[0], 100 * 101 / 2);
}

/* Array sections: gcc uses the start address of the section. */
static void sections(void)
{
    int v[64] = {0}, bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 200; r++) {
#pragma omp task depend(out : v[0 : 32]) shared(v) firstprivate(r)
        for (int i = 0; i < 32; i++) v[i] = r;
#pragma omp task depend(inout : v[32 : 32]) shared(v)
        for (int i = 32; i < 64; i++) v[i]++;
#pragma omp task depend(in : v[0 : 32]) depend(in : v[32 : 32]) shared(v, bad) firstprivate(r)
        if (v[31] != r || v[63] != r + 1)
#pragma omp atomic
            bad++;
    }
    CHECK(bad == 0 && v[0] == 199 && v[63] == 200, "array-section dependences: %d bad", bad);
}

/* An undeferred task (if(0)) with dependences waits for its deferred
 * predecessors; deferred tasks after it wait for it. */
static void undeferred(void)
{
    int bad = 0;
    int x = 0, y = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 300; r++) {
#pragma omp task depend(out : x) shared(x)
        {
            for (volatile int k = 0; k < 300; k++) {}
            x = r + 1;
        }
#pragma omp task if (0) depend(inout : x) shared(x, y, bad)
        {
            if (x != r + 1)
                bad++;
            x = -x;
            y = r;
        }
        /* the if(0) task finished before we continue */
        if (x != -(r + 1) || y != r)
            bad++;
#pragma omp task depend(in : x) shared(x, bad)
        if (x != -(r + 1))
#pragma omp atomic
            bad++;
#pragma omp task depend(out : x) shared(x)
        x = 0;
#pragma omp taskwait
    }
    CHECK(bad == 0, "undeferred/deferred dependences: %d bad", bad);
}

/* taskwait depend(...): waits for the sibling tasks it depends on. */
static void taskwait_depend(void)
{
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 300; r++) {
        int a = 0, b = 0, c = 0;
#pragma omp task depend(out : a) shared(a)
        {
            for (volatile int k = 0; k < 200; k++) {}
            a = 1;
        }
#pragma omp task depend(out : b) shared(b)
        b = 1;
#pragma omp task depend(in : a) depend(out : c) shared(a, c)
        c = a + 1;
#pragma omp taskwait depend(in : c)
        if (c != 2 || a != 1) /* c's writer and (through it) a's */
            bad++;
#pragma omp taskwait depend(inout : b)
        if (b != 1)
            bad++;
#pragma omp taskwait
    }
    CHECK(bad == 0, "taskwait depend: %d bad", bad);
}

/* Tasks whose children have dependences of their own (sibling sets are
 * per parent; the same address in different parents does not order). */
static int chain_total;
static void nested_chains(void)
{
    chain_total = 0;
#pragma omp parallel
#pragma omp single
    for (int p = 0; p < 16; p++) {
#pragma omp task firstprivate(p)
        {
            int v = 0;
            for (int i = 0; i < 50; i++) {
#pragma omp task depend(inout : v) shared(v) firstprivate(i)
                {
                    if (v != i)
                        __atomic_add_fetch(&chain_total, 1000000, __ATOMIC_RELAXED);
                    v = i + 1;
                }
            }
#pragma omp taskwait
            __atomic_add_fetch(&chain_total, v, __ATOMIC_RELAXED);
        }
    }
    CHECK(chain_total == 16 * 50, "nested chains: total %d, want %d", chain_total, 16 * 50);
}

int main(void)
{
    random_graphs();
    depobj_iterator();
    sections();
    undeferred();
    taskwait_depend();
    nested_chains();
    return 0;
}
