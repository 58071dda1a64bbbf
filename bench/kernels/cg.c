/* cg.c - many short balanced taskloops, the shape of NPB CG's inner iteration: 16 distinct band-matrix loops of 14,000 iterations (about 100 us of work each on one core of the development VM), repeated hundreds of times. */
#include "kernel.h"

#define HALF 3 /* band half-width: 7 multiply-adds per iteration */

static long n;
static double *v[4];

/* dst[i] = 0.5 dst[i] + the band product of src at i + a source term: the
 * weights sum to just under 0.5, so values stay bounded while every loop's
 * result still shows in the checksum hundreds of loops later; the band is
 * clamped at the ends. */
#define BAND_ROW(dst, src, i, c)                                              \
    {                                                                         \
        double s_ = 0.0;                                                      \
        for (long k_ = -HALF; k_ <= HALF; k_++) {                             \
            long j_ = (i) + k_;                                               \
            j_ = j_ < 0 ? 0 : j_ >= n ? n - 1 : j_;                           \
            s_ += (c) * (double)(HALF + 1 - (k_ < 0 ? -k_ : k_)) * (src)[j_]; \
        }                                                                     \
        (dst)[i] = 0.5 * (dst)[i] + s_ + 0.001 * (double)((i) % 5);          \
    }

/* Weight scale of loop L: distinct per loop so that the order matters. */
#define COEF(L) (0.499 / (double)((HALF + 1) * (HALF + 1)) * (1.0 - 0.001 * (L)))

/* Loop L: v[(L+1)%4] from v[L%4]; each is its own taskloop (its own outlined
 * function, hence its own ILAN identity), as CG's loops are. */
#define STEP(L) KLOOP(i, 0, n, BAND_ROW(v[((L) + 1) % 4], v[(L) % 4], i, COEF(L)))

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        STEP(0); STEP(1); STEP(2); STEP(3); STEP(4); STEP(5); STEP(6); STEP(7);
        STEP(8); STEP(9); STEP(10); STEP(11); STEP(12); STEP(13); STEP(14); STEP(15);
    }
}

static void init(void)
{
    for (int a = 0; a < 4; a++)
        for (long i = 0; i < n; i++)
            v[a][i] = 1.0 + (double)((i * (a + 3)) % 17) * 0.05;
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "cg", "taskloop,static,dynamic", 14000, 300);
    n = kopt.n;
    for (int a = 0; a < 4; a++)
        v[a] = kernel_alloc(n);
    init();
    double t = kernel_time(body);
    double got = 0;
    for (int a = 0; a < 4; a++)
        got += kernel_checksum(v[a], n);
    init();
    for (int r = 0; r < kopt.reps; r++)
        for (int L = 0; L < 16; L++)
            for (long i = 0; i < n; i++)
                BAND_ROW(v[(L + 1) % 4], v[L % 4], i, COEF(L));
    double want = 0;
    for (int a = 0; a < 4; a++)
        want += kernel_checksum(v[a], n);
    return kernel_result(t, got, want, 1e-12);
}
