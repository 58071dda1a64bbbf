// affinity_whatif_nested.c - nesting from the environment on the 64-core,
// 8-node what-if machine: OMP_PROC_BIND=spread,close with OMP_NUM_THREADS=4,2
// and OMP_PLACES=cores. The outer team of 4 spreads: thread i on core 16i
// with the partition of cores 16i..16i+15 (nodes 2i and 2i+1); each inner
// team of 2 stays close inside that partition: cores 16i and 16i+1, node 2i.
// (threads=1 sets OMP_NUM_THREADS=1, which the env entry OMP_NUM_THREADS=4,2 replaces.)
// ilan-test: threads=1
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_PLACES=cores;OMP_PROC_BIND=spread,close;OMP_NUM_THREADS=4,2
#include "affinity_common.h"

static int outer_bind, inner_bind;

int main(void)
{
    struct aff_model m;
    aff_model_read(&m);
    if (!ilan_test_on_ilan())
        m.valid = 0;
    CHECK(omp_get_proc_bind() == omp_proc_bind_spread, "proc-bind %d at level 0, want spread",
          (int)omp_get_proc_bind());
    CHECK(omp_get_max_active_levels() >= 2, "max-active-levels %d with 2-item lists, want >= 2",
          omp_get_max_active_levels());
#pragma omp parallel
    {
        int o = omp_get_thread_num();
        aff_record(&aff_outer[o]);
        if (o == 0)
            outer_bind = omp_get_proc_bind();
#pragma omp parallel
        {
            aff_record(&aff_inner[o][omp_get_thread_num()]);
            CHECK(omp_get_num_threads() == 2, "inner team of %d, want 2", omp_get_num_threads());
            if (o == 0 && omp_get_thread_num() == 0)
                inner_bind = omp_get_proc_bind();
        }
        CHECK(omp_get_num_threads() == 4, "outer team of %d, want 4", omp_get_num_threads());
    }
    CHECK(outer_bind == omp_proc_bind_close, "proc-bind %d at level 1, want close", outer_bind);
    CHECK(inner_bind == omp_proc_bind_close, "proc-bind %d at level 2, want close (the last "
          "item goes on)", inner_bind);

    int part0[AFF_MAXP];
    int P = aff_check_initial(part0);
    aff_check_nested(&m, AFF_SPREAD, 4, AFF_CLOSE, 2, 0, part0, P);
    if (m.valid) {
        /* the closed form on this machine, on top of the rules */
        CHECK(P == 64, "%d places, want 64", P);
        for (int i = 0; i < 4; i++) {
            CHECK(aff_outer[i].place == 16 * i && aff_outer[i].npart == 16 &&
                      aff_outer[i].part[0] == 16 * i,
                  "outer thread %d: place %d, partition of %d from %d; want 16 from %d", i,
                  aff_outer[i].place, aff_outer[i].npart, aff_outer[i].part[0], 16 * i);
            CHECK(aff_outer[i].node == 2 * i, "outer thread %d on node %d, want %d", i,
                  aff_outer[i].node, 2 * i);
            for (int j = 0; j < 2; j++) {
                CHECK(aff_inner[i][j].place == 16 * i + j, "inner thread %d.%d on place %d, "
                      "want %d", i, j, aff_inner[i][j].place, 16 * i + j);
                CHECK(aff_inner[i][j].node == 2 * i, "inner thread %d.%d on node %d, want %d",
                      i, j, aff_inner[i][j].node, 2 * i);
            }
        }
    }
    return 0;
}
