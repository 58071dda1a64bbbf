/* hybrid_bind.c - a hybrid MPI + OpenMP program, built with `mpicc -fopenmp`
 * by run.sh and started with `mpirun -np 2 --bind-to core`.
 *
 * Each rank checks that it runs on ilan (dlsym of ilan_version, unless
 * ILAN_TEST_ANY_RUNTIME=1), records the CPU set the launcher gave it, runs an
 * OpenMP region, and records every thread's CPU set. Rank 0 gathers them and
 * checks: every thread of a rank is confined to its rank's set, and the two
 * ranks' sets are disjoint (each rank on its own core). One line per rank on
 * stdout describes what it saw; the exit status is 0 only if all holds.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 64
#define WORDS (CPU_SETSIZE / 64)

static void set_to_words(const cpu_set_t *s, unsigned long long *w)
{
    memset(w, 0, WORDS * sizeof *w);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, s))
            w[c / 64] |= 1ull << (c % 64);
}

static const char *words_str(const unsigned long long *w, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int c = 0; c < CPU_SETSIZE && len + 12 < size; c++)
        if (w[c / 64] >> (c % 64) & 1)
            len += (size_t)snprintf(buf + len, size - len, len ? ",%d" : "%d", c);
    return buf;
}

struct report {
    int nthreads;
    int on_ilan;
    unsigned long long rank_set[WORDS];
    unsigned long long thread_set[MAXT][WORDS];
    int thread_cpu[MAXT];
};

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    static struct report me;
    cpu_set_t s;
    CPU_ZERO(&s);
    sched_getaffinity(0, sizeof s, &s);
    set_to_words(&s, me.rank_set);
    me.on_ilan = dlsym(RTLD_DEFAULT, "ilan_version") != NULL;

#pragma omp parallel
    {
        int t = omp_get_thread_num();
        cpu_set_t ts;
        CPU_ZERO(&ts);
        sched_getaffinity(0, sizeof ts, &ts);
        if (t < MAXT) {
            set_to_words(&ts, me.thread_set[t]);
            me.thread_cpu[t] = sched_getcpu();
        }
#pragma omp single
        me.nthreads = omp_get_num_threads();
    }

    struct report *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    MPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);

    int bad = 0;
    if (rank == 0) {
        const char *any = getenv("ILAN_TEST_ANY_RUNTIME");
        int any_runtime = any && strcmp(any, "1") == 0;
        char a[512], b[512];
        for (int r = 0; r < size; r++) {
            struct report *p = &all[r];
            printf("rank %d: runtime %s, CPUs {%s}, %d threads:", r,
                   p->on_ilan ? "ilan" : "not ilan", words_str(p->rank_set, a, sizeof a),
                   p->nthreads);
            for (int t = 0; t < p->nthreads && t < MAXT; t++)
                printf(" {%s}@%d", words_str(p->thread_set[t], a, sizeof a), p->thread_cpu[t]);
            printf("\n");
            if (!p->on_ilan && !any_runtime) {
                fprintf(stderr, "FAIL: rank %d does not run on ilan\n", r);
                bad = 1;
            }
            for (int t = 0; t < p->nthreads && t < MAXT; t++) {
                for (int w = 0; w < WORDS; w++)
                    if (p->thread_set[t][w] & ~p->rank_set[w]) {
                        fprintf(stderr, "FAIL: rank %d thread %d may run on {%s}, outside the "
                                "rank's {%s}\n", r, t, words_str(p->thread_set[t], a, sizeof a),
                                words_str(p->rank_set, b, sizeof b));
                        bad = 1;
                        break;
                    }
                if (!(p->rank_set[p->thread_cpu[t] / 64] >> (p->thread_cpu[t] % 64) & 1)) {
                    fprintf(stderr, "FAIL: rank %d thread %d runs on CPU %d\n", r, t,
                            p->thread_cpu[t]);
                    bad = 1;
                }
            }
            for (int q = 0; q < r; q++)
                for (int w = 0; w < WORDS; w++)
                    if (all[q].rank_set[w] & p->rank_set[w]) {
                        fprintf(stderr, "FAIL: ranks %d and %d share CPUs ({%s} and {%s})\n", q,
                                r, words_str(all[q].rank_set, a, sizeof a),
                                words_str(p->rank_set, b, sizeof b));
                        bad = 1;
                        break;
                    }
        }
        fflush(stdout);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return bad;
}
