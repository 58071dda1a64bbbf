// task_basic.c - the task construct: many tiny tasks each run exactly once
// (created by one thread and by all threads), if(0) tasks complete before the
// creating statement continues, final/omp_in_final and included descendants,
// mergeable, untied with taskyield, tasks outside any parallel region, and
// the capture of shared/firstprivate/private data, including argument blocks
// larger than 256 bytes, VLAs (gcc passes a cpyfn) and 64-byte alignment.
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"
#include <stdint.h>

#ifdef __SANITIZE_THREAD__
#define NTINY (1 << 14) /* TSan slows every atomic ~100x */
#else
#define NTINY (1 << 20)
#endif

static unsigned char *hits; /* one counter per tiny task */

/* A million tiny tasks created by the thread that runs `single`.  With
 * more than 8 threads on a 2-core machine, one creator against 63 idle
 * thieves takes libgomp ~5 s for 2^20 tasks: there, 2^17. */
static void tiny_from_single(void)
{
    int n = omp_get_max_threads() > 8 ? NTINY / 8 : NTINY;
    memset(hits, 0, NTINY);
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < NTINY; i++)
        CHECK(hits[i] == (i < n), "single-created tiny task %d ran %d times", i, hits[i]);
}

/* The same number of tasks, created by every thread of the team. */
static void tiny_from_all(void)
{
    memset(hits, 0, NTINY);
    int nthr = 0;
#pragma omp parallel
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        if (me == 0)
            nthr = nt;
        for (int i = me; i < NTINY; i += nt) {
#pragma omp task firstprivate(i)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
    }
    CHECK(nthr >= 1, "team size %d", nthr);
    for (int i = 0; i < NTINY; i++)
        CHECK(hits[i] == 1, "team-created tiny task %d ran %d times", i, hits[i]);
}

/* Tasks that check the thread they run on is a member of the team. */
static void thread_numbers(void)
{
    int bad = 0, ran = 0;
#pragma omp parallel
    {
        int nt = omp_get_num_threads();
#pragma omp single
        for (int i = 0; i < 2000; i++) {
#pragma omp task shared(bad, ran)
            {
                int t = omp_get_thread_num();
                if (t < 0 || t >= nt || omp_get_num_threads() != nt || omp_in_parallel() != (nt > 1))
#pragma omp atomic
                    bad++;
#pragma omp atomic
                ran++;
            }
        }
    }
    CHECK(bad == 0, "%d tasks saw a wrong thread number/team size", bad);
    CHECK(ran == 2000, "ran %d of 2000", ran);
}

/* if(0): the task is undeferred; the creating statement continues only
 * after it completed, even while deferred tasks are pending. */
static void if_zero(void)
{
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        for (int r = 0; r < 200; r++) {
            int done = 0, slow = 0;
            int zero = r < 0; /* a run-time false */
#pragma omp task shared(slow)
            slow = 1;
#pragma omp task if (zero) shared(done)
            {
                for (volatile int k = 0; k < 100; k++) {}
                done = 1;
            }
            if (done != 1)
                bad++;
#pragma omp task if (0) shared(done)
            done = 2;
            if (done != 2)
                bad++;
#pragma omp taskwait
            if (slow != 1)
                bad++;
        }
    }
    CHECK(bad == 0, "%d if(0) tasks had not completed when the creator continued", bad);
}

/* final: the task and all its descendants are final (included tasks, run
 * immediately by the encountering thread); omp_in_final() says so. */
static int final_tree(int depth, int *bad)
{
    if (!omp_in_final())
        __atomic_add_fetch(bad, 1, __ATOMIC_RELAXED);
    if (depth == 0)
        return 1;
    int a = 0, b = 0;
#pragma omp task shared(a) firstprivate(depth)
    a = final_tree(depth - 1, bad);
    /* included task: completed before the next statement */
    if (a == 0)
        __atomic_add_fetch(bad, 1000, __ATOMIC_RELAXED);
#pragma omp task shared(b) firstprivate(depth) final(0)
    b = final_tree(depth - 1, bad); /* final(0) inside a final task: still final */
    if (b == 0)
        __atomic_add_fetch(bad, 1000, __ATOMIC_RELAXED);
#pragma omp taskwait
    return a + b;
}

static void final_clause(void)
{
    int bad = 0, leaves = 0, not_final = 0, implicit_final = -1;
#pragma omp parallel
    {
#pragma omp single
        {
            implicit_final = omp_in_final();
            for (int i = 0; i < 8; i++) {
                int one = (i % 2 == 0); /* run-time final expression */
#pragma omp task final(one) firstprivate(one) shared(bad, leaves, not_final)
                {
                    if (one) {
                        int n = final_tree(6, &bad);
#pragma omp atomic
                        leaves += n;
                    } else if (omp_in_final()) {
#pragma omp atomic
                        not_final++;
                    }
                }
            }
        }
    }
    CHECK(implicit_final == 0, "omp_in_final() = %d in an implicit task", implicit_final);
    CHECK(not_final == 0, "%d final(0) tasks said omp_in_final()", not_final);
    CHECK(bad == 0, "final descendants: %d bad (1 per non-final, 1000 per not-included)", bad);
    CHECK(leaves == 4 * 64, "final trees gave %d leaves, want %d", leaves, 4 * 64);
}

/* mergeable (may share the parent's data environment) and untied tasks. */
static void mergeable_untied(void)
{
    long sum = 0;
    int yields = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 1; i <= 500; i++) {
#pragma omp task mergeable firstprivate(i) shared(sum)
#pragma omp atomic
            sum += i;
#pragma omp task untied firstprivate(i) shared(sum, yields)
            {
#pragma omp atomic
                sum += 2 * i;
#pragma omp taskyield
#pragma omp atomic
                yields++;
#pragma omp task mergeable firstprivate(i) shared(sum)
#pragma omp atomic
                sum += 3 * i;
#pragma omp taskwait
            }
        }
        /* final + mergeable: gcc/libgomp may merge these into the parent */
#pragma omp task final(1) mergeable shared(sum)
        {
            for (int i = 1; i <= 500; i++) {
#pragma omp task mergeable firstprivate(i) shared(sum)
#pragma omp atomic
                sum += 4 * i;
            }
        }
    }
    CHECK(sum == 10L * 500 * 501 / 2, "mergeable/untied sum %ld, want %ld", sum, 10L * 500 * 501 / 2);
    CHECK(yields == 500, "untied tasks passed taskyield %d times, want 500", yields);
}

/* Tasks outside any parallel region: the implicit task of the initial
 * thread creates them; taskwait and the end of the program complete them. */
static void orphan_tasks(void)
{
    int v[100] = {0};
    for (int i = 0; i < 100; i++) {
#pragma omp task shared(v) firstprivate(i)
        v[i] = i * i;
    }
#pragma omp taskwait
    for (int i = 0; i < 100; i++) CHECK(v[i] == i * i, "orphan task %d", i);
}

/* ---- capture of data ---- */

struct big { int v[100]; }; /* 400 bytes: an argument block > 256 bytes */

struct __attribute__((aligned(64))) aligned_blk {
    double d[5];
    char tag;
};

static int check_vla(int n, const int *v, int base)
{
    for (int i = 0; i < n; i++)
        if (v[i] != base + i)
            return 0;
    return 1;
}

static void capture(void)
{
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
#pragma omp single
    for (int r = 0; r < 50; r++) {
        int arr[100];
        struct big b;
        struct aligned_blk al = {{1, 2, 3, 4, 5}, 'x'};
        int n = 37 + r; /* VLA: gcc copies it with a cpyfn */
        int vla[n];
        int sh = 0, pv = 12345;
        for (int i = 0; i < 100; i++) arr[i] = b.v[i] = r * 1000 + i;
        for (int i = 0; i < n; i++) vla[i] = r + i;
#pragma omp task firstprivate(arr, b, al, vla, r) private(pv) shared(sh, bad)
        {
            int ok = 1;
            for (int i = 0; i < 100; i++)
                ok &= arr[i] == r * 1000 + i && b.v[i] == r * 1000 + i;
            ok &= ((uintptr_t)&al % 64) == 0;
            ok &= al.d[0] == 1 && al.d[4] == 5 && al.tag == 'x';
            ok &= check_vla(n, vla, r);
            pv = -1; /* private: not the creator's pv */
            for (int i = 0; i < 100; i++) arr[i] = -1;
            if (!ok)
#pragma omp atomic
                bad++;
#pragma omp atomic
            sh += 1;
        }
        /* the creator changes its copies right away: the task must not see it */
        for (int i = 0; i < 100; i++) arr[i] = b.v[i] = -7;
        for (int i = 0; i < n; i++) vla[i] = -7;
        al.d[0] = -7;
        al.tag = 'y';
#pragma omp taskwait
        if (sh != 1 || pv != 12345 || arr[0] != -7)
            bad++;
    }
    CHECK(bad == 0, "%d tasks saw wrong firstprivate/private/shared data", bad);
}

/* A firstprivate aligned block in an undeferred task and in a final task
 * (argument blocks copied on the creator's stack path). */
static void capture_undeferred(void)
{
    int bad = 0;
    struct aligned_blk al = {{7, 7, 7, 7, 7}, 'q'};
    struct big b;
    for (int i = 0; i < 100; i++) b.v[i] = i;
#pragma omp parallel shared(bad)
    {
#pragma omp task if (0) firstprivate(al, b) shared(bad)
        {
            if ((uintptr_t)&al % 64 != 0 || al.tag != 'q' || b.v[99] != 99)
#pragma omp atomic
                bad++;
        }
#pragma omp task final(1) firstprivate(al, b) shared(bad)
        {
#pragma omp task firstprivate(al, b) shared(bad)
            if ((uintptr_t)&al % 64 != 0 || al.d[3] != 7 || b.v[50] != 50)
#pragma omp atomic
                bad++;
        }
    }
    CHECK(bad == 0, "%d undeferred/final tasks saw a wrong or misaligned copy", bad);
}

int main(void)
{
    hits = malloc(NTINY);
    CHECK(hits != NULL, "malloc");
    tiny_from_single();
    tiny_from_all();
    thread_numbers();
    if_zero();
    final_clause();
    mergeable_untied();
    orphan_tasks();
    capture();
    capture_undeferred();
    free(hits);
    return 0;
}
