// affinity_gomp_cpu_affinity_precedence.c - OMP_PLACES wins over
// GOMP_CPU_AFFINITY (as in libgomp): with OMP_PLACES={0},{1} and
// GOMP_CPU_AFFINITY=1 the places are {0},{1}, thread i on place i.
// ilan-test: threads=2
// ilan-test: env=OMP_PLACES={0},{1};GOMP_CPU_AFFINITY=1
#include "affinity_common.h"

int main(void)
{
    char a[256];
    CHECK(omp_get_num_places() == 2, "%d places, want 2 (OMP_PLACES)", omp_get_num_places());
    cpu_set_t s;
    aff_place_set(0, &s);
    CHECK(CPU_COUNT(&s) == 1 && CPU_ISSET(0, &s), "place 0 is {%s}, want {0}",
          aff_set_str(&s, a, sizeof a));
    int T = aff_region(-1, 0);
    for (int i = 0; i < T; i++)
        CHECK(aff_recs[i].place == i, "thread %d on place %d", i, aff_recs[i].place);
    return 0;
}
