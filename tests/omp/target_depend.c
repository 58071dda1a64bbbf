// target_depend.c - a target region runs on the host (there is no device)
// and honours its depend clauses: it starts after the task it depends on and
// finishes before the tasks that depend on it.
// ilan-test: tsan
#include "check.h"

int main(void)
{
    for (int round = 0; round < 50; round++) {
        int x = 0, y = 0, z = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp task depend(out : x) shared(x)
            {
                for (volatile int i = 0; i < 20000; i++)
                    ;
                x = 1;
            }
#pragma omp target depend(in : x) depend(out : y) map(tofrom : x, y)
            y = x + 1;
#pragma omp task depend(in : y) shared(y, z)
            z = y + 1;
        }
        CHECK(x == 1 && y == 2 && z == 3, "round %d: x=%d y=%d z=%d, want 1 2 3", round, x, y, z);
    }
    CHECK(omp_is_initial_device(), "not on the initial device");
    return 0;
}
