// task_tree.c - recursive task trees with known results: fib(30) with a task
// per call (taskwait and taskgroup forms, and with a final() cutoff),
// 8-queens (92 solutions) with a task per placement, and a binary tree built
// by tasks and summed by tasks.
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

#ifdef __SANITIZE_THREAD__
#define FIB_N 18
#define FIB_WANT 2584L
#define TREE_DEPTH 12
#else
#define FIB_N 30
#define FIB_WANT 832040L
#define TREE_DEPTH 16
#endif

static long fib_tw(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib_tw(n - 1);
#pragma omp task shared(b)
    b = fib_tw(n - 2);
#pragma omp taskwait
    return a + b;
}

static long fib_tg(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp taskgroup
    {
#pragma omp task shared(a)
        a = fib_tg(n - 1);
        b = fib_tg(n - 2); /* one child in the creating task */
    }
    return a + b;
}

/* final(n < 12): below the cutoff the tasks are included (run at once). */
static long fib_final(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) final(n < 12)
    a = fib_final(n - 1);
#pragma omp task shared(b) final(n < 12)
    b = fib_final(n - 2);
#pragma omp taskwait
    return a + b;
}

/* ---- n-queens: one task per legal placement, board copied by value ---- */

#define QN 8
static int solutions;

static int legal(const signed char *q, int row, int col)
{
    for (int r = 0; r < row; r++)
        if (q[r] == col || q[r] - col == r - row || q[r] - col == row - r)
            return 0;
    return 1;
}

struct board { signed char q[QN]; };

static void queens(struct board b, int row)
{
    if (row == QN) {
#pragma omp atomic
        solutions++;
        return;
    }
    for (int col = 0; col < QN; col++) {
        if (!legal(b.q, row, col))
            continue;
        b.q[row] = (signed char)col;
#pragma omp task firstprivate(b, row)
        queens(b, row + 1);
    }
#pragma omp taskwait
}

/* ---- a binary tree built by tasks, then summed by tasks ---- */

struct node {
    long val;
    struct node *l, *r;
};

static struct node *build(int depth, long id)
{
    struct node *n = malloc(sizeof *n);
    CHECK(n != NULL, "malloc");
    n->val = id;
    n->l = n->r = NULL;
    if (depth > 0) {
#pragma omp task shared(n) firstprivate(depth, id)
        n->l = build(depth - 1, 2 * id);
#pragma omp task shared(n) firstprivate(depth, id)
        n->r = build(depth - 1, 2 * id + 1);
#pragma omp taskwait
    }
    return n;
}

static long sum_tree(struct node *n)
{
    if (!n)
        return 0;
    long a = 0, b = 0;
#pragma omp task shared(a) if (n->l != NULL)
    a = sum_tree(n->l);
#pragma omp task shared(b)
    b = sum_tree(n->r);
#pragma omp taskwait
    return n->val + a + b;
}

static void free_tree(struct node *n)
{
    if (!n)
        return;
    free_tree(n->l);
    free_tree(n->r);
    free(n);
}

int main(void)
{
    long f1 = 0, f2 = 0, f3 = 0;
#pragma omp parallel
#pragma omp single
    f1 = fib_tw(FIB_N);
    CHECK(f1 == FIB_WANT, "fib(%d) with taskwait = %ld, want %ld", FIB_N, f1, FIB_WANT);

#pragma omp parallel
#pragma omp single
    f2 = fib_tg(FIB_N);
    CHECK(f2 == FIB_WANT, "fib(%d) with taskgroup = %ld, want %ld", FIB_N, f2, FIB_WANT);

#pragma omp parallel
#pragma omp single
    f3 = fib_final(FIB_N);
    CHECK(f3 == FIB_WANT, "fib(%d) with final cutoff = %ld, want %ld", FIB_N, f3, FIB_WANT);

    /* every thread computes its own fib(15) with tasks at the same time */
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        long f = fib_tw(15);
        if (f != 610)
            bad++;
    }
    CHECK(bad == 0, "%d threads got a wrong concurrent fib(15)", bad);

    for (int rep = 0; rep < 3; rep++) {
        solutions = 0;
#pragma omp parallel
#pragma omp single
        {
            struct board b;
            memset(&b, -1, sizeof b);
            queens(b, 0);
        }
        CHECK(solutions == 92, "%d-queens: %d solutions, want 92", QN, solutions);
    }

    struct node *root = NULL;
    long sum = 0;
#pragma omp parallel
#pragma omp single
    {
        root = build(TREE_DEPTH, 1);
        sum = sum_tree(root);
    }
    /* ids 1 .. 2^(d+1)-1, each once */
    long n = (1L << (TREE_DEPTH + 1)) - 1;
    CHECK(sum == n * (n + 1) / 2, "tree sum %ld, want %ld", sum, n * (n + 1) / 2);
    free_tree(root);
    return 0;
}
