// locks_hint.c - omp_init_lock_with_hint / omp_init_nest_lock_with_hint with
// every hint value.  gcc 12's omp.h declares them but its libgomp.so.1 does
// not export them, so they are referenced weakly: on another runtime a missing
// symbol skips the test; on ilan it must exist.
#include "check.h"

extern void omp_init_lock_with_hint(omp_lock_t *, omp_sync_hint_t) __attribute__((weak));
extern void omp_init_nest_lock_with_hint(omp_nest_lock_t *, omp_sync_hint_t)
    __attribute__((weak));

static volatile long counter;

int main(void)
{
    if (!omp_init_lock_with_hint || !omp_init_nest_lock_with_hint) {
        CHECK(ilan_test_any_runtime(), "ilan lacks omp_init_lock_with_hint");
        printf("locks_hint: runtime lacks omp_init_lock_with_hint, skipped\n");
        return 0;
    }
    int nthr = 0;
#pragma omp parallel
#pragma omp master
    nthr = omp_get_num_threads();

    omp_sync_hint_t hints[] = {
        omp_sync_hint_none,
        omp_sync_hint_uncontended,
        omp_sync_hint_contended,
        omp_sync_hint_nonspeculative,
        omp_sync_hint_speculative,
        omp_sync_hint_uncontended | omp_sync_hint_speculative,
        omp_sync_hint_uncontended | omp_sync_hint_nonspeculative,
        omp_sync_hint_contended | omp_sync_hint_speculative,
        omp_sync_hint_contended | omp_sync_hint_nonspeculative,
        omp_lock_hint_none,
        omp_lock_hint_contended,
    };
    for (unsigned h = 0; h < sizeof hints / sizeof hints[0]; h++) {
        omp_lock_t hl;
        omp_init_lock_with_hint(&hl, hints[h]);
        CHECK(omp_test_lock(&hl) == 1, "hinted test_lock (hint %d)", (int)hints[h]);
        omp_unset_lock(&hl);
        counter = 0;
#pragma omp parallel
        for (int i = 0; i < 1000; i++) {
            omp_set_lock(&hl);
            long v = counter;
            counter = v + 1;
            omp_unset_lock(&hl);
        }
        CHECK(counter == 1000L * nthr, "hint %d: counter %ld", (int)hints[h], counter);
        omp_destroy_lock(&hl);

        omp_nest_lock_t hn;
        omp_init_nest_lock_with_hint(&hn, hints[h]);
        CHECK(omp_test_nest_lock(&hn) == 1, "hinted nest lock");
        CHECK(omp_test_nest_lock(&hn) == 2, "hinted nest lock depth 2");
        omp_unset_nest_lock(&hn);
        omp_unset_nest_lock(&hn);
        counter = 0;
#pragma omp parallel
        for (int i = 0; i < 500; i++) {
            omp_set_nest_lock(&hn);
            omp_set_nest_lock(&hn);
            long v = counter;
            counter = v + 1;
            omp_unset_nest_lock(&hn);
            omp_unset_nest_lock(&hn);
        }
        CHECK(counter == 500L * nthr, "nest hint %d: counter %ld", (int)hints[h], counter);
        omp_destroy_nest_lock(&hn);
    }
    return 0;
}
