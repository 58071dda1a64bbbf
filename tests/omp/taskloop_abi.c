// taskloop_abi.c - GOMP_taskloop / GOMP_taskloop_ull at the edges of the
// ABI: unsigned loops near 2^64 and long loops near LONG_MAX/LONG_MIN in
// both directions, steps that do not divide the range (the last task's end
// lies past the loop's end; OpenMP leaves loops whose variable would
// overflow unspecified, and gcc's task body cannot run them, so the values
// stay just clear of it), the exact first iteration of every task
// against libgomp's split, firstprivate VLAs (gcc passes a copy function),
// deferred and if(0), copies made before the body changes the original,
// each task's own copies of scalars and arrays that it changes,
// and reduction + lastprivate together.
// ilan-test: tsan modes=ilan,numa,ws
#include <limits.h>
#include "check.h"

#define MAXT 64

static int firsts_n;
static unsigned long long firsts[MAXT]; /* first iteration value of each task */

static void note_first(unsigned long long v, int *seen)
{
    if (*seen)
        return;
    *seen = 1;
    int k = __atomic_fetch_add(&firsts_n, 1, __ATOMIC_RELAXED);
    if (k < MAXT)
        firsts[k] = v;
}

static int cmp_up(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

/* libgomp's split of n iterations into k even tasks: task i starts at
 * iteration i * (n / k) + min(i, n % k). */
static unsigned long long even_first(unsigned long long n, unsigned long long k,
                                     unsigned long long i)
{
    return i * (n / k) + (i < n % k ? i : n % k);
}

static void ull_up(void)
{
    const unsigned long long s0 = ULLONG_MAX - 100;
    /* s0, s0+7, ..., s0+91: 14 iterations; the last task's end, s0+98,
     * lies past the loop's end */
    for (int k = 1; k <= 16; k++) {
        long cnt = 0;
        unsigned long long last = 0;
        int seen = 0; /* firstprivate: one copy per task */
        firsts_n = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(k) reduction(+ : cnt) lastprivate(last) firstprivate(seen)
        for (unsigned long long v = s0; v < ULLONG_MAX - 7; v += 7) {
            note_first(v, &seen);
            cnt++;
            last = v;
        }
        CHECK(cnt == 14 && last == s0 + 91, "ull up num_tasks(%d): %ld iterations", k, cnt);
        int nt = k < 14 ? k : 14;
        CHECK(firsts_n == nt, "ull up num_tasks(%d): %d tasks", k, firsts_n);
        qsort(firsts, (size_t)firsts_n, sizeof firsts[0], cmp_up);
        for (int i = 0; i < nt; i++)
            CHECK(firsts[i] == s0 + 7 * even_first(14, (unsigned long long)nt, (unsigned long long)i),
                  "ull up num_tasks(%d): task %d starts at %llu", k, i, firsts[i] - s0);
    }
}

static void ull_down(void)
{
    for (int g = 1; g <= 9; g++) {
        long cnt = 0;
        unsigned long long sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(g) reduction(+ : cnt, sum)
        for (unsigned long long v = 40; v > 2; v -= 3) { /* 40, 37, ..., 4 */
            cnt++;
            sum += v;
        }
        CHECK(cnt == 13 && sum == 13 * (40 + 4) / 2, "ull down grainsize(%d): %ld its, sum %llu",
              g, cnt, sum);
    }
    /* near the top, counting down */
    long cnt = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(strict : 4) reduction(+ : cnt)
    for (unsigned long long v = ULLONG_MAX; v > ULLONG_MAX - 50; v -= 2)
        cnt++;
    CHECK(cnt == 25, "ull down near 2^64: %ld", cnt);
}

static void long_edges(void)
{
    for (int k = 1; k <= 12; k++) {
        long cnt = 0, last = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(k) reduction(+ : cnt) lastprivate(last)
        for (long v = LONG_MAX - 50; v < LONG_MAX - 4; v += 4) { /* 12 values */
            cnt++;
            last = v;
        }
        CHECK(cnt == 12 && last == LONG_MAX - 6, "long near max num_tasks(%d): %ld, last %ld", k,
              cnt, last);
        cnt = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(k) reduction(+ : cnt) lastprivate(last)
        for (long v = LONG_MIN + 50; v > LONG_MIN + 4; v -= 4) { /* 12 values */
            cnt++;
            last = v;
        }
        CHECK(cnt == 12 && last == LONG_MIN + 6, "long near min grainsize(%d): %ld, last %ld", k,
              cnt, last);
    }
}

/* A firstprivate VLA: gcc copies the block with a copy function. Each
 * task sees the values of the encounter, even when if(0) runs the tasks
 * one after another and each changes the original. */
static void vla(int n)
{
    int a[n];
    for (int i = 0; i < n; i++)
        a[i] = i;
    int *orig = a;
    long bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        int defer = mode == 0;
        for (int i = 0; i < n; i++)
            a[i] = i;
#pragma omp parallel shared(bad)
#pragma omp single
#pragma omp taskloop firstprivate(a) num_tasks(8) if (defer) reduction(+ : bad)
        for (int t = 0; t < 32; t++) {
            for (int i = 0; i < n; i++)
                bad += a[i] != i;
            if (!defer)
                orig[t % n] = -2; /* the original: later tasks' copies predate it */
        }
        CHECK(bad == 0, "VLA firstprivate (%s): %ld wrong values", defer ? "deferred" : "if(0)",
              bad);
    }
}

/* Each task (one iteration each) changes its own copies of a scalar
 * (gcc passes its bytes, no copy function) and of a fixed-size array (a
 * copy function); every later task, deferred, under if(0) or in a team of
 * one, still starts from the encounter's values. */
static void changed_copies(void)
{
    int a[4] = {1, 2, 3, 4};
    long x = 7;
    for (int mode = 0; mode < 3; mode++) {
        long bad_bytes = 0, bad_array = 0;
        int threads = mode == 2 ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(threads) shared(bad_bytes, bad_array)
#pragma omp single
        {
#pragma omp taskloop firstprivate(x) num_tasks(32) if (mode != 1) reduction(+ : bad_bytes)
            for (int t = 0; t < 32; t++) {
                bad_bytes += x != 7;
                x = -t;
            }
#pragma omp taskloop firstprivate(a) num_tasks(32) if (mode != 1) reduction(+ : bad_array)
            for (int t = 0; t < 32; t++) {
                bad_array += a[0] != 1 || a[1] != 2 || a[2] != 3 || a[3] != 4;
                a[t % 4] = -1;
            }
        }
        const char *how = mode == 0 ? "deferred" : mode == 1 ? "if(0)" : "team of one";
        CHECK(bad_bytes == 0, "firstprivate scalar (%s): %ld tasks saw another's copy", how,
              bad_bytes);
        CHECK(bad_array == 0, "firstprivate array (%s): %ld tasks saw another's copy", how,
              bad_array);
    }
}

/* Tasks that leave a trace in their descriptor, one after another: one
 * that changes an ICV (the next task still sees its creator's value), one
 * whose deferred child outlives it (the next ones still run, and the
 * taskloop waits for that child), under if(0), in a team of one, final,
 * and deferred. ilan runs such tasks back to back on one descriptor
 * (task_included_batch). */
static void traces_between_tasks(void)
{
    for (int mode = 0; mode < 4; mode++) {
        int threads = mode == 2 ? 1 : omp_get_max_threads();
        long bad_icv = 0, bad_final = 0;
        int children = 0;
#pragma omp parallel num_threads(threads) shared(bad_icv, bad_final, children)
#pragma omp single
        {
            int outer = omp_get_max_threads();
#pragma omp taskloop num_tasks(60) if (mode != 1) final(mode == 3) reduction(+ : bad_icv, bad_final)
            for (int t = 0; t < 60; t++) {
                bad_icv += omp_get_max_threads() != outer;
                bad_final += omp_in_final() != (mode == 3);
                omp_set_num_threads(t + 2);
                if (t % 3 == 0) {
#pragma omp task shared(children)
                    {
#pragma omp atomic
                        children++;
                    }
                    if (t % 2 == 0) {
#pragma omp taskwait
                    }
                }
            }
            CHECK(children == 20, "mode %d: %d of 20 child tasks done at the taskloop's end", mode,
                  children);
            CHECK(omp_get_max_threads() == outer, "mode %d: the tasks' ICV change leaked out",
                  mode);
        }
        CHECK(bad_icv == 0, "mode %d: %ld tasks saw an earlier task's nthreads-var", mode, bad_icv);
        CHECK(bad_final == 0, "mode %d: %ld tasks got omp_in_final wrong", mode, bad_final);
    }
}

int main(void)
{
    for (int rep = 0; rep < 3; rep++) {
        ull_up();
        ull_down();
        long_edges();
        vla(5);
        vla(300);
        changed_copies();
        traces_between_tasks();
    }
    return 0;
}
