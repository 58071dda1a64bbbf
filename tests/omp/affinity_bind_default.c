// affinity_bind_default.c - OMP_PROC_BIND=true with no OMP_PLACES: places
// are the cores of the process's set, the default team has one thread per
// core, thread i bound to the i-th core (compact), and a second region of
// the same size finds every thread on the same core. Other runtimes choose
// other default places: there only the team is checked.
// ilan-test: threads=default,1,2,3,8
// ilan-test: env=OMP_PROC_BIND=true
#include "affinity_common.h"

int main(void)
{
    const char *env_n = getenv("OMP_NUM_THREADS");
    int T = aff_region(-1, 0);
    memcpy(aff_prev, aff_recs, sizeof aff_prev);
    int T2 = aff_region(-1, 0);
    CHECK(T == T2, "default teams of %d and %d", T, T2);
    if (!ilan_test_on_ilan())
        return 0;

    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "proc-bind %d, want true",
          (int)omp_get_proc_bind());
    int P = omp_get_num_places();
    /* places: the cores, i.e. disjoint, covering the process's CPUs, in order */
    cpu_set_t all;
    CPU_ZERO(&all);
    int last = -1;
    for (int p = 0; p < P; p++) {
        cpu_set_t s, both;
        aff_place_set(p, &s);
        CPU_AND(&both, &s, &all);
        CHECK(CPU_COUNT(&both) == 0, "place %d overlaps an earlier place", p);
        int first = -1;
        for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
            if (CPU_ISSET(c, &s))
                first = c;
        CHECK(first > last, "place %d starts at CPU %d, before place %d", p, first, p - 1);
        last = first;
        CPU_OR(&all, &all, &s);
    }
    CHECK(CPU_EQUAL(&all, &aff_process_set), "the default places do not cover the process's "
          "CPUs");
    if (env_n == NULL)
        CHECK(T == P, "default team of %d on %d cores, want one thread per core", T, P);

    int part0[AFF_MAXP];
    aff_check_initial(part0);
    aff_check_team("default team", AFF_CLOSE, T, 0, part0, P, aff_recs);
    aff_check_bound_to_places("default team", T, aff_recs);
    aff_check_same("two default regions", T, aff_prev, aff_recs);
    for (int i = 0; i < T && T <= P; i++) /* T > P: runs of threads per core, checked above */
        CHECK(aff_recs[i].place == i, "thread %d on core %d, want %d (compact)", i,
              aff_recs[i].place, i);
    return 0;
}
