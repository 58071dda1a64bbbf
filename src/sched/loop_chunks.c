/* loop_chunks.c — chunk sizes of adaptive, FAC2, TSS and AF, and auto's expert chunk (pure arithmetic). */
#include "sched/loop_chunks.h"

#include <math.h>

static iter_ull ceil_div(iter_ull a, iter_ull b)
{
    return a / b + (a % b != 0);
}

static iter_ull round_up(iter_ull x, iter_ull c)
{
    iter_ull r = x % c;
    return r == 0 || x > UINT64_MAX - (c - r) ? x : x + (c - r);
}

iter_ull loop_steal_size(iter_ull rem, iter_ull c)
{
    if (rem == 0)
        return 0;
    if (c == 0)
        c = 1;
    iter_ull s = round_up(rem / 2, c);
    if (s == 0)
        s = 1;
    return s > rem ? rem : s;
}

iter_ull loop_pop_size(iter_ull rem, iter_ull c, iter_ull mult)
{
    if (c == 0)
        c = 1;
    if (mult == 0)
        mult = 1;
    iter_ull want = mult > UINT64_MAX / c ? UINT64_MAX : c * mult;
    iter_ull half = round_up(rem / 2, c);
    if (want > half)
        want = half;
    if (want < c)
        want = c;
    return want > rem ? rem : want;
}

iter_ull loop_pop_mult(iter_ull mult, uint64_t ns, uint64_t target_ns)
{
    if (mult == 0)
        mult = 1;
    if (ns < target_ns && mult < LOOP_POP_MULT_MAX)
        return mult * 2;
    if (ns > 4 * target_ns && mult > 1)
        return mult / 2;
    return mult;
}

unsigned loop_pop_stride(unsigned stride, bool steady)
{
    if (!steady || stride == 0)
        return 1;
    return stride >= LOOP_POP_STRIDE_MAX ? LOOP_POP_STRIDE_MAX : stride * 2;
}

/* ---- FAC2 ---- */

/* Chunk size of a batch that starts with `rem` iterations left. */
static iter_ull fac2_size(iter_ull rem, unsigned P, iter_ull c)
{
    iter_ull s = ceil_div(rem, 2 * (iter_ull)P);
    return s < c ? c : s;
}

bool loop_fac2_chunk(iter_ull n, unsigned P, iter_ull c, iter_ull k, struct fac_cursor *cur,
                     iter_ull *lb, iter_ull *le)
{
    if (P == 0)
        P = 1;
    if (c == 0)
        c = 1;
    if (cur->size == 0 || k < cur->batch_k) {
        cur->batch_k = 0;
        cur->batch_pos = 0;
        cur->size = fac2_size(n, P, c);
    }
    for (;;) {
        if (cur->batch_pos >= n)
            return false;
        iter_ull left = n - cur->batch_pos;
        /* The batch holds P chunks, or fewer when it reaches the end. */
        iter_ull to_end = ceil_div(left, cur->size), in_batch = to_end < P ? to_end : P;
        if (k < cur->batch_k + in_batch) {
            iter_ull off = (k - cur->batch_k) * cur->size;
            *lb = cur->batch_pos + off;
            *le = left - off <= cur->size ? n : *lb + cur->size;
            return true;
        }
        /* A batch that reaches the end uses `left`: in_batch * size could
         * wrap for unsigned long long loops near 2^64. */
        iter_ull used = in_batch == to_end ? left : in_batch * cur->size;
        cur->batch_k += in_batch;
        cur->batch_pos = used >= left ? n : cur->batch_pos + used;
        if (cur->batch_pos < n)
            cur->size = fac2_size(n - cur->batch_pos, P, c);
    }
}

/* ---- TSS ---- */

bool loop_tss_chunk(iter_ull n, unsigned P, iter_ull c, iter_ull k, iter_ull *lb, iter_ull *le)
{
    if (P == 0)
        P = 1;
    if (c == 0)
        c = 1;
    if (n == 0)
        return false;
    iter_ull F = ceil_div(n, 2 * (iter_ull)P);
    iter_ull L = c;
    if (F < L)
        F = L;
    unsigned __int128 C = ((unsigned __int128)2 * n + (F + L) - 1) / (F + L);
    iter_ull delta = C > 1 ? (iter_ull)((F - L) / (C - 1)) : 0;
    /* Chunks 0..m-1 shrink by delta (m: while F - j*delta >= L); later
     * ones have L iterations. */
    iter_ull m = delta ? (F - L) / delta + 1 : (iter_ull)-1;
    unsigned __int128 start, size;
    if (k < m) {
        unsigned __int128 kk = k;
        start = kk * F - (unsigned __int128)delta * (kk * (kk - (k ? 1 : 0)) / 2);
        size = F - kk * delta;
    } else {
        unsigned __int128 mm = m;
        unsigned __int128 shrink_end = mm * F - (unsigned __int128)delta * (mm * (mm - 1) / 2);
        start = shrink_end + (unsigned __int128)(k - m) * L;
        size = L;
    }
    if (start >= n)
        return false;
    *lb = (iter_ull)start;
    *le = start + size >= n ? n : (iter_ull)(start + size);
    return true;
}

/* ---- AF ---- */

void loop_af_sums_add(struct loop_af_sums *s, double mu, double var, unsigned count)
{
    if (count == 0 || !(mu > 0))
        return;
    s->known++;
    s->mu_sum += mu;
    s->var_sum += var;
    s->d_sum += var / mu;
    s->inv_sum += 1 / mu;
}

iter_ull loop_af_size_sums(iter_ull R, iter_ull c, const struct loop_af_sums *s, double mu_i,
                           unsigned count_i)
{
    unsigned P = s->P ? s->P : 1;
    if (c == 0)
        c = 1;
    if (R == 0)
        return 0;
    iter_ull first = fac2_size(R, P, c);
    if (first > R)
        first = R;
    if (s->known == 0 || count_i == 0 || !(mu_i > 0))
        return first;
    /* Threads without a measurement count as the mean of those with one. */
    unsigned unknown = P > s->known ? P - s->known : 0;
    double mu_avg = s->mu_sum / s->known, var_avg = s->var_sum / s->known;
    double D = s->d_sum + unknown * (var_avg / mu_avg);
    double inv = s->inv_sum + unknown / mu_avg;
    double E = 1 / inv, r = (double)R;
    double K = (D + 2 * E * r - sqrt(D * D + 4 * D * E * r)) / (2 * mu_i);
    if (!(K >= (double)c)) /* also catches NaN */
        return c < R ? c : R;
    if (K >= (double)R)
        return R;
    iter_ull k = (iter_ull)K;
    return k < c ? c : k;
}

iter_ull loop_af_size(iter_ull R, unsigned P, iter_ull c, unsigned i, const double *mu,
                      const double *var, const unsigned *count)
{
    struct loop_af_sums s = {.P = P ? P : 1};
    for (unsigned j = 0; j < s.P; j++)
        loop_af_sums_add(&s, mu[j], var[j], count[j]);
    return loop_af_size_sums(R, c, &s, mu[i], count[i]);
}

void loop_af_sample(double *mean, double *m2, unsigned *count, iter_ull iters, double ns)
{
    if (iters == 0)
        return;
    double x = ns / (double)iters;
    unsigned n = *count + 1;
    double d = x - *mean;
    *mean += d / n;
    *m2 += d * (x - *mean);
    *count = n;
}

iter_ull loop_expert_chunk(iter_ull n, unsigned P)
{
    if (P == 0)
        P = 1;
    iter_ull c = ceil_div(n, (iter_ull)LOOP_EXPERT_CHUNKS_PER_THREAD * P);
    return c ? c : 1;
}
