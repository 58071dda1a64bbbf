// barrier.c - explicit and implicit barriers: phase checks over many rounds.
// ilan-test: tsan vary=ILAN_BARRIER=tree,central
#include "check.h"

#define ROUNDS 2000
#define MAXT 128

static int slot[MAXT];

int main(void)
{
    int nthr = omp_get_max_threads();
    if (nthr > MAXT) nthr = MAXT;
    int errors = 0;

    /* each thread writes its slot, barrier, everyone checks every slot, barrier */
#pragma omp parallel num_threads(nthr) reduction(+ : errors)
    {
        int n = omp_get_num_threads(), me = omp_get_thread_num();
        for (int r = 0; r < ROUNDS; r++) {
            __atomic_store_n(&slot[me], r * MAXT + me, __ATOMIC_RELAXED);
#pragma omp barrier
            for (int t = 0; t < n; t++)
                errors += __atomic_load_n(&slot[t], __ATOMIC_RELAXED) != r * MAXT + t;
#pragma omp barrier
        }
    }
    CHECK(errors == 0, "%d stale slots seen after barriers", errors);

    /* plain (non-atomic) data published before a barrier is visible after it */
    {
        static long data[MAXT][8];
        int bad = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : bad)
        {
            int n = omp_get_num_threads(), me = omp_get_thread_num();
            for (int r = 1; r <= 300; r++) {
                for (int j = 0; j < 8; j++) data[me][j] = (long)r * 1000 + me * 8 + j;
#pragma omp barrier
                int other = (me + r) % n;
                for (int j = 0; j < 8; j++) bad += data[other][j] != (long)r * 1000 + other * 8 + j;
#pragma omp barrier
            }
        }
        CHECK(bad == 0, "plain data not visible after barrier (%d)", bad);
    }

    /* single-barrier ping-pong: counter incremented by one thread per phase */
    {
        int counter = 0, bad = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : bad)
        {
            int n = omp_get_num_threads();
            for (int r = 0; r < 500; r++) {
                if (omp_get_thread_num() == r % n) counter++;
#pragma omp barrier
                bad += counter != r + 1;
#pragma omp barrier
            }
        }
        CHECK(bad == 0, "counter phases wrong %d", bad);
    }

    /* implicit barrier at the end of a parallel region and of worksharing */
    for (int r = 0; r < 100; r++) {
        int done[MAXT] = {0};
        int n = 0;
#pragma omp parallel num_threads(nthr)
        {
            done[omp_get_thread_num()] = r + 1;
#pragma omp single
            n = omp_get_num_threads();
        }
        for (int t = 0; t < n; t++) CHECK(done[t] == r + 1, "end-of-region barrier");
    }
    {
        int bad = 0;
        static int a[4096];
#pragma omp parallel num_threads(nthr) reduction(+ : bad)
        for (int r = 0; r < 20; r++) {
#pragma omp for schedule(dynamic, 16)
            for (int i = 0; i < 4096; i++) a[i] = r * 4096 + i;
            /* implicit barrier of the for: all writes complete */
#pragma omp for schedule(static)
            for (int i = 0; i < 4096; i++) bad += a[4095 - i] != r * 4096 + 4095 - i;
        }
        CHECK(bad == 0, "worksharing implicit barrier %d", bad);
    }

    /* barrier in teams of varying sizes in sequence (team reconfiguration) */
    for (int sz = 1; sz <= 9; sz++) {
        int bad = 0;
        int s2[16];
#pragma omp parallel num_threads(sz) reduction(+ : bad)
        {
            int n = omp_get_num_threads(), me = omp_get_thread_num();
            for (int r = 0; r < 50; r++) {
                s2[me] = r;
#pragma omp barrier
                for (int t = 0; t < n; t++) bad += s2[t] != r;
#pragma omp barrier
            }
        }
        CHECK(bad == 0, "team %d barrier", sz);
    }

    /* barrier inside a nested inner team only synchronises that team */
    omp_set_max_active_levels(2);
    {
        int bad = 0;
        int s3[2][4];
#pragma omp parallel num_threads(2) reduction(+ : bad)
        {
            int o = omp_get_thread_num();
#pragma omp parallel num_threads(3) reduction(+ : bad)
            {
                int n = omp_get_num_threads(), me = omp_get_thread_num();
                for (int r = 0; r < 100; r++) {
                    s3[o][me] = r;
#pragma omp barrier
                    for (int t = 0; t < n; t++) bad += s3[o][t] != r;
#pragma omp barrier
                }
            }
        }
        CHECK(bad == 0, "nested barrier %d", bad);
    }
    return 0;
}
