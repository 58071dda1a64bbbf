/* mg.c - multigrid-like V-cycles: the same taskloops run over grids of n, n/2, n/4, ... points, so their iteration count changes during the run (the thesis's MG case). */
#include "kernel.h"

#define MAXLEV 24
static double *g[MAXLEV], *tmp[MAXLEV];
static long len[MAXLEV];
static int levels;

/* smooth level l (g -> tmp -> g), restrict l -> l+1, prolong l+1 -> l */
#define SMOOTH1(l, i) tmp[l][i] = (i > 0 && i < len[l] - 1) ? 0.5 * g[l][i] + 0.25 * (g[l][i - 1] + g[l][i + 1]) : g[l][i];
#define COPYBACK(l, i) g[l][i] = tmp[l][i];
#define RESTRICT(l, i) g[l + 1][i] = 0.5 * (g[l][2 * i] + g[l][2 * i + 1]);
#define PROLONG(l, i) g[l][i] += 0.5 * g[l + 1][i / 2];

static void smooth(int l)
{
    KLOOP(i, 0, len[l], SMOOTH1(l, i));
    KLOOP(i, 0, len[l], COPYBACK(l, i));
}

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        for (int l = 0; l < levels - 1; l++) {
            smooth(l);
            KLOOP(i, 0, len[l + 1], RESTRICT(l, i));
        }
        for (int l = levels - 2; l >= 0; l--) {
            KLOOP(i, 0, len[l], PROLONG(l, i));
            smooth(l);
        }
    }
}

static void serial(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        for (int l = 0; l < levels - 1; l++) {
            for (long i = 0; i < len[l]; i++) { SMOOTH1(l, i) }
            for (long i = 0; i < len[l]; i++) { COPYBACK(l, i) }
            for (long i = 0; i < len[l + 1]; i++) { RESTRICT(l, i) }
        }
        for (int l = levels - 2; l >= 0; l--) {
            for (long i = 0; i < len[l]; i++) { PROLONG(l, i) }
            for (long i = 0; i < len[l]; i++) { SMOOTH1(l, i) }
            for (long i = 0; i < len[l]; i++) { COPYBACK(l, i) }
        }
    }
}

static void init(void)
{
    for (int l = 0; l < levels; l++)
        for (long i = 0; i < len[l]; i++)
            g[l][i] = l ? 0.0 : (double)(i % 17) * 0.1;
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "mg", "taskloop,static,dynamic", 1L << 21, 20);
    levels = 0;
    for (long m = kopt.n; m >= 64 && levels < MAXLEV; m /= 2) /* coarsest grid: >= 64 points */
        levels++;
    if (levels < 2) {
        fprintf(stderr, "mg: --n must be at least 128 (two levels)\n");
        return 2;
    }
    for (int l = 0; l < levels; l++) { /* every level but the coarsest has an even length */
        len[l] = (kopt.n >> (levels - 1)) << (levels - 1 - l);
        g[l] = kernel_alloc(len[l]), tmp[l] = kernel_alloc(len[l]);
    }
    init();
    double t = kernel_time(body);
    double got = kernel_checksum(g[0], len[0]);
    init();
    serial();
    return kernel_result(t, got, kernel_checksum(g[0], len[0]), 1e-12);
}
