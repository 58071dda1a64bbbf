/* loop_chunks.h — chunk sizes of the loop schedules that need no chunk clause (pure): adaptive's owner pops and thieves' halves, FAC2, TSS, AF, and the expert chunk of schedule(auto). */
#ifndef ILAN_SCHED_LOOP_CHUNKS_H
#define ILAN_SCHED_LOOP_CHUNKS_H

#include <stdbool.h>
#include <stdint.h>
#include "sched/iter.h"

/*
 * All sizes are in logical iterations (sched/iter.h). `P` is the team
 * size, `c` the chunk clause (>= 1: the smallest chunk a schedule hands
 * out, except the loop's last one).
 */

/* ---- adaptive (seed 001): per-thread ranges, steal-half ---- */

/* How many of a victim's `rem` untaken iterations a thief takes from the
 * back of its range: half, rounded up to a multiple of c, never more than
 * rem, at least one when rem > 0 (a lone iteration still moves to an idle
 * thread: the owner may be busy with a long one). */
iter_ull loop_steal_size(iter_ull rem, iter_ull c);

/* How many iterations an owner takes from the front of its own range of
 * `rem` untaken iterations: c * mult (mult: its current multiplier, see
 * loop_pop_mult), but never more than half of rem rounded up to c (the
 * rest stays stealable), never less than c, never more than rem. */
iter_ull loop_pop_size(iter_ull rem, iter_ull c, iter_ull mult);

/* The owner's next multiplier after a chunk of `mult` * c iterations took
 * `ns`: doubled while chunks take less than target_ns (so that the cost of
 * a pop, a clock read and a fence, stays a small fraction of the work),
 * halved when one took more than 4 * target_ns (so that a thief finds work
 * to steal), within [1, LOOP_POP_MULT_MAX]. */
iter_ull loop_pop_mult(iter_ull mult, uint64_t ns, uint64_t target_ns);

#define LOOP_POP_MULT_MAX ((iter_ull)1 << 24)

/* How many pops the owner makes until its next clock read, after a read
 * (timing the `stride` chunks since the one before, whose mean went to
 * loop_pop_mult) that left the multiplier unchanged (`steady`) or not:
 * doubled while steady, up to LOOP_POP_STRIDE_MAX; 1 after a change. A
 * clock read costs about as much as the rest of a pop (24 ns against a
 * store, a fence and a load on the 2-vCPU EPYC VM), and once chunks take
 * target_ns or more it only confirms the multiplier. */
unsigned loop_pop_stride(unsigned stride, bool steady);

#define LOOP_POP_STRIDE_MAX 16u

/* ---- FAC2: practical factoring (Hummel, Schonberg, Flynn 1992; Flynn
 * Hummel et al.'s "factoring" with x = 2, as LB4OMP's FAC2) ---- */

/* Iterations are handed out in batches of P chunks; every chunk of batch b
 * has max(c, ceil(R_b / (2P))) iterations, R_b being what was left when
 * the batch began (R_0 = n). Chunk k (0-based, in claim order) is
 * [*lb, *le); false when k lies past the end. `cur` caches the batch
 * walk: zero it before the first call; calls with increasing k then cost
 * O(1) each (any k works, from any state). */
struct fac_cursor {
    iter_ull batch_k;   /* index of the first chunk of the cached batch */
    iter_ull batch_pos; /* first iteration of that batch */
    iter_ull size;      /* chunk size within that batch; 0: nothing cached */
};
bool loop_fac2_chunk(iter_ull n, unsigned P, iter_ull c, iter_ull k, struct fac_cursor *cur,
                     iter_ull *lb, iter_ull *le);

/* ---- TSS: trapezoid self-scheduling (Tzen and Ni, IEEE TPDS 4(1), 1993) ----
 * first chunk F = ceil(n / (2P)), last chunk L = c, C = ceil(2n / (F + L))
 * chunks, each delta = floor((F - L) / (C - 1)) smaller than the one
 * before (never below L); the last chunk ends at n. */
bool loop_tss_chunk(iter_ull n, unsigned P, iter_ull c, iter_ull k, iter_ull *lb, iter_ull *le);

/* ---- AF: adaptive factoring (Banicescu and Liu, 2000; LB4OMP's AF) ----
 * Thread i's next chunk when R iterations are left, from every thread's
 * measured mean mu[j] and variance var[j] of the time of one iteration
 * (count[j] = chunks timed; threads with none count as the mean of those
 * with some):
 *     D = sum_j var[j] / mu[j],  E = 1 / sum_j (1 / mu[j]),
 *     K_i = (D + 2 E R - sqrt(D^2 + 4 D E R)) / (2 mu[i]),
 * clipped to [c, R]. Before any thread has timed a chunk (or when thread i
 * has not), FAC2's first-batch size max(c, ceil(R / (2P))). */
iter_ull loop_af_size(iter_ull R, unsigned P, iter_ull c, unsigned i, const double *mu,
                      const double *var, const unsigned *count);

/* The same rule from running sums over the threads, so that a claimer can
 * add every thread's timing as it reads it (no copy of the team's
 * statistics): loop_af_size == loop_af_size_sums after loop_af_sums_add of
 * every thread j (in any order) into sums zeroed with P set. */
struct loop_af_sums {
    unsigned P;     /* threads of the team */
    unsigned known; /* threads with a measurement (count > 0, mean > 0) */
    double mu_sum;  /* sum of their means */
    double var_sum; /* sum of their variances */
    double d_sum;   /* sum of var / mean over them */
    double inv_sum; /* sum of 1 / mean over them */
};
void loop_af_sums_add(struct loop_af_sums *s, double mu, double var, unsigned count);

/* Thread i's chunk (its own mean mu_i over count_i timed chunks) from the
 * team's sums s, R iterations left, minimum chunk c. */
iter_ull loop_af_size_sums(iter_ull R, iter_ull c, const struct loop_af_sums *s, double mu_i,
                           unsigned count_i);

/* One timed chunk of `iters` iterations that took ns, folded into a
 * thread's running mean and variance of the time per iteration (Welford;
 * *count is the number of chunks folded, *m2 the sum of squared deviations;
 * the variance is m2 / count). */
void loop_af_sample(double *mean, double *m2, unsigned *count, iter_ull iters, double ns);

/* ---- schedule(auto)'s expert chunk ----
 * The chunk auto gives its dynamic-style candidates (adaptive, FAC2, AF,
 * guided), from the iteration count and the team size as Auto4OMP does:
 * ceil(n / (LOOP_EXPERT_CHUNKS_PER_THREAD * P)), at least 1: each thread's
 * share in that many chunks, enough to balance, few enough to keep the
 * shared-counter claims (guided, FAC2, AF) rare. */
#define LOOP_EXPERT_CHUNKS_PER_THREAD 64u
iter_ull loop_expert_chunk(iter_ull n, unsigned P);

#endif
