// affinity_bind_clause_serial.c - with binding on (OMP_PROC_BIND=true, a
// list of one), a proc_bind clause sets the bind-var of the new implicit
// tasks even when the region is serialized (if(0)): omp_get_proc_bind()
// inside reports the clause, nested regions without a clause inherit it,
// and the encountering task's own value is unchanged afterwards.
// ilan-test: threads=1,2
// ilan-test: env=OMP_PROC_BIND=true
#include "affinity_common.h"

int main(void)
{
    int inside = -1, nested = -1, other = -1;
    #pragma omp parallel if(0) proc_bind(spread)
    {
        inside = omp_get_proc_bind();
        #pragma omp parallel if(0)
        nested = omp_get_proc_bind();
        #pragma omp parallel if(0) proc_bind(primary)
        other = omp_get_proc_bind();
    }
    CHECK(inside == omp_proc_bind_spread, "inside proc_bind(spread): %d", inside);
    CHECK(nested == omp_proc_bind_spread, "nested without a clause: %d", nested);
    CHECK(other == omp_proc_bind_primary, "nested proc_bind(primary): %d", other);
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "outside: %d", (int)omp_get_proc_bind());
    int team = -1;
    #pragma omp parallel num_threads(2) proc_bind(close)
    #pragma omp single
    team = omp_get_proc_bind();
    CHECK(team == omp_proc_bind_close, "in a proc_bind(close) team: %d", team);
    return 0;
}
