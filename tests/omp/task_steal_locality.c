// task_steal_locality.c - task stealing prefers the thief's own NUMA node
// as ILAN_DLB_PLOCAL says: on a what-if machine of 4 nodes of 2 cores, 8
// bound threads; in each node the even thread makes tasks of a few
// microseconds and the odd one only steals, so every thief's own node has
// work while it looks, and so do the other nodes. With P_local 1 (the
// default) a thief's quick looks draw only its own node, and other nodes
// are robbed only by the full look before sleeping, after its own node was
// seen empty: its steals are mostly from its node. With P_local 0 the quick
// looks draw only other nodes, nearest first: mostly from afar. The exact
// per-draw rule is in tests/unit/test_steal.c; here the counters show it
// end to end, in one of up to 3 runs (on 2 cores 8 threads are descheduled
// at random; a thief that rarely runs while its partner does draws little).
// Every run counts each task exactly once. ILAN_DLB is pinned to ws: the
// steal counters count deque steals, and under na-ws/na-rp tasks move by
// message instead (their victims are drawn by the same rule, dlb_ask).
// ilan-test: threads=8 tsan modes=ilan,numa env=OMP_PROC_BIND=close;HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;ILAN_COUNTERS=runtime;ILAN_DLB=ws vary=ILAN_DLB_PLOCAL=1,0
#include "check.h"
#include <stdatomic.h>
#include <stdbool.h>

#define TASKS 4000 /* per making thread */

static long long (*counter)(const char *name, int thread);

static void work(void)
{
    volatile double x = 0;
    for (int k = 0; k < 2000; k++)
        x += k;
}

/* Steals by the odd (thief) threads since the last call, local and remote. */
static void thief_steals(long long *local, long long *remote)
{
    static long long seen_local, seen_remote;
    long long l = 0, r = 0;
    for (int t = 1; t < 8; t += 2) {
        l += counter("steals_local", t);
        r += counter("steals_remote", t);
    }
    *local = l - seen_local;
    *remote = r - seen_remote;
    seen_local = l;
    seen_remote = r;
}

int main(void)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    const char *p = getenv("ILAN_DLB_PLOCAL");
    bool local_first = !p || atof(p) >= 1.0;
    bool shown = false;
    long long local = 0, remote = 0;
    for (int attempt = 0; attempt < 3 && !shown; attempt++) {
        static _Atomic long ran;
        atomic_store(&ran, 0);
        int nthreads = 0;
#pragma omp parallel
        {
#pragma omp single
            nthreads = omp_get_num_threads();
            if (omp_get_thread_num() % 2 == 0)
                for (int i = 0; i < TASKS; i++) {
#pragma omp task
                    {
                        work();
                        atomic_fetch_add(&ran, 1);
                    }
                }
        }
        CHECK(nthreads == 8, "%d threads", nthreads);
        CHECK_EQ_LL(atomic_load(&ran), 4LL * TASKS);
        thief_steals(&local, &remote);
        shown = local_first ? local > remote : remote > local;
    }
    CHECK(shown, "P_local %s: thieves stole %lld tasks from their own node and %lld from others",
          p ? p : "1 (default)", local, remote);
    printf("P_local %s: thieves' steals %lld local, %lld remote\n", p ? p : "1", local, remote);
    return 0;
}
