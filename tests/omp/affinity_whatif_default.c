// affinity_whatif_default.c - ilan's default places on the 64-core, 8-node
// what-if machine (HWLOC_SYNTHETIC and OMP_PROC_BIND=true set, no
// OMP_PLACES): places are the 64 cores, the
// default team has one thread per core, thread i on core i (compact, node by
// node: node i/8), bound; a second region of the same size finds every
// thread where it was. On another runtime (no what-if, no default binding)
// only the team is checked.
// ilan-test: threads=default,8,64
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_PROC_BIND=true
#include "affinity_common.h"

static struct aff_rec first[AFF_MAXT];

int main(void)
{
    const char *env_n = getenv("OMP_NUM_THREADS");
    int want_T = env_n ? atoi(env_n) : 64;
    int on_ilan = ilan_test_on_ilan();
    struct aff_model m;
    aff_model_read(&m);
    if (!on_ilan)
        m.valid = 0;
    if (on_ilan) {
        aff_check_places_model(&m, "cores");
        CHECK(omp_get_proc_bind() == omp_proc_bind_true, "proc-bind %d, want true",
              (int)omp_get_proc_bind());
        CHECK(omp_get_max_threads() == want_T, "default team of %d, want %d",
              omp_get_max_threads(), want_T);
    }
    int T = aff_region(-1, 0);
    memcpy(first, aff_recs, sizeof first);
    int T2 = aff_region(-1, 0);
    CHECK(T2 == T, "two default teams of %d and %d", T, T2);
    if (!on_ilan)
        return 0;
    CHECK(T == want_T, "default team of %d, want %d", T, want_T);
    for (int i = 0; i < T; i++) {
        CHECK(first[i].place == i, "thread %d on place %d, want %d (compact)", i, first[i].place,
              i);
        CHECK(first[i].node == i / 8, "thread %d on node %d, want %d", i, first[i].node, i / 8);
        CHECK(aff_recs[i].place == first[i].place && CPU_EQUAL(&aff_recs[i].mask, &first[i].mask),
              "thread %d moved from place %d to %d between two regions of %d", i, first[i].place,
              aff_recs[i].place, T);
    }
    aff_check_whatif_binding("default team", &m, T, first);
    int part0[AFF_MAXP];
    aff_check_initial(part0);
    return 0;
}
