/* contention.c - iterations that add atomically into 4 shared counters on a few cache lines, plus a little private work: interference, faster on one core than on two. */
#include "kernel.h"

#define NCOUNT 4
#define WORK 8 /* private arithmetic steps per iteration */
static long counters[NCOUNT]; /* adjacent: one or two cache lines, shared by all threads */
static volatile long private_sink;

#define ITER(i)                                                   \
    {                                                             \
        long x = i;                                               \
        for (int w = 0; w < WORK; w++) x = x * 6364136223846793005L + 1442695040888963407L; \
        __atomic_add_fetch(&counters[i % NCOUNT], 1 + (x & 1), __ATOMIC_RELAXED); \
    }

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        KLOOP(i, 0, kopt.n, ITER(i));
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "contention", "taskloop,static,dynamic", 1L << 20, 20);
    double t = kernel_time(body);
    double got = 0, want = 0;
    for (int c = 0; c < NCOUNT; c++)
        got += (double)counters[c] * (c + 1);
    long ref[NCOUNT] = {0};
    for (int r = 0; r < kopt.reps; r++)
        for (long i = 0; i < kopt.n; i++) {
            long x = i;
            for (int w = 0; w < WORK; w++)
                x = x * 6364136223846793005L + 1442695040888963407L;
            ref[i % NCOUNT] += 1 + (x & 1);
        }
    for (int c = 0; c < NCOUNT; c++)
        want += (double)ref[c] * (c + 1);
    private_sink = ref[0];
    return kernel_result(t, got, want, 0.0);
}
