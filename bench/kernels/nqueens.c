/* nqueens.c - fine-grained tasks: count the n-queens solutions with a task per placement in the first rows (BOTS-style, board copied per task). */
#include "kernel.h"

#define MAXN 20
#define TASK_DEPTH 4 /* rows placed by tasks; deeper rows recurse serially */
static long solutions;

static int safe(const char *b, int row, int c)
{
    for (int r = 0; r < row; r++)
        if (b[r] == c || b[r] - c == row - r || c - b[r] == row - r)
            return 0;
    return 1;
}

static long serial_count(char *b, int row, int n)
{
    if (row == n)
        return 1;
    long s = 0;
    for (int c = 0; c < n; c++)
        if (safe(b, row, c)) {
            b[row] = (char)c;
            s += serial_count(b, row + 1, n);
        }
    return s;
}

static void place(const char *b, int row, int n)
{
    if (row >= TASK_DEPTH) {
        char copy[MAXN];
        memcpy(copy, b, (size_t)row);
        long s = serial_count(copy, row, n);
        __atomic_add_fetch(&solutions, s, __ATOMIC_RELAXED);
        return;
    }
    for (int c = 0; c < n; c++) {
        if (!safe(b, row, c))
            continue;
#pragma omp task firstprivate(c)
        {
            char nb[MAXN];
            memcpy(nb, b, (size_t)row);
            nb[row] = (char)c;
            place(nb, row + 1, n);
        }
    }
#pragma omp taskwait
}

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        solutions = 0;
        place("", 0, (int)kopt.n);
    }
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "nqueens", "task", 12, 3);
    if (kopt.n > MAXN) {
        fprintf(stderr, "nqueens: --n must be <= %d\n", MAXN);
        return 2;
    }
    double t = kernel_time(body);
    char b[MAXN];
    return kernel_result(t, (double)solutions, (double)serial_count(b, 0, (int)kopt.n), 0.0);
}
