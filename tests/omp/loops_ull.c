// loops_ull.c - loops over unsigned long long / unsigned long: gcc uses the
// GOMP_loop_ull_* entry points.  Bounds above 2^32 and above 2^63, increasing
// and decreasing, every schedule x chunk.
#include "_loops.h"

typedef unsigned long long ull;
FOR_EACH_SCHEDULE(DEFINE_LOOP_TESTS, ull, 0, lq)
FOR_EACH_SCHEDULE(DEFINE_LOOP_TESTS, unsigned long, 0, lul)

static const struct {
    const char *name;
    void (*fn)(ull, ull, ull);
} ull_fns[] = {FOR_EACH_SCHEDULE(LOOP_FN_ENTRY, ull, 0, lq)};
static const struct {
    const char *name;
    void (*fn)(unsigned long, unsigned long, unsigned long);
} ul_fns[] = {FOR_EACH_SCHEDULE(LOOP_FN_ENTRY, unsigned long, 0, lul)};

int main(void)
{
    static const ull params[][3] = {
        {0, 1000, 1},
        {1ULL << 33, (1ULL << 33) + 1000, 1},
        {(1ULL << 33) + 5, (1ULL << 33) + 3000, 7},
        {(1ULL << 63) - 500, (1ULL << 63) + 500, 3} /* crosses 2^63 */,
        {0xFFFFFFFFFFFFF000ULL, 0xFFFFFFFFFFFFFC00ULL, 7} /* near 2^64 */,
        {0xFFFFFFFFFFFFF000ULL, 0xFFFFFFFFFFFFFF00ULL, 1},
        {1ULL << 40, 1ULL << 40, 1} /* empty */,
        {(1ULL << 40) + 1, 1ULL << 40, 1} /* empty, lb > ub */,
        {1ULL << 40, (1ULL << 40) + 1, 1} /* one iteration */,
        {0, 1ULL << 62, 1ULL << 51} /* 2048 iterations, huge span */,
    };
    loop_what = "unsigned long long";
    for (unsigned f = 0; f < sizeof ull_fns / sizeof ull_fns[0]; f++)
        for (unsigned p = 0; p < sizeof params / sizeof params[0]; p++)
            ull_fns[f].fn(params[p][0], params[p][1], params[p][2]);
    loop_what = "unsigned long";
    for (unsigned f = 0; f < sizeof ul_fns / sizeof ul_fns[0]; f++)
        for (unsigned p = 3; p < 6; p++)
            ul_fns[f].fn(params[p][0], params[p][1], params[p][2]);
    return 0;
}
