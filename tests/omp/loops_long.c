// loops_long.c - worksharing loops over long / long long: bounds beyond 2^32,
// negative ranges, every schedule x chunk x direction x step.
#include "_loops.h"

FOR_EACH_SCHEDULE(DEFINE_LOOP_TESTS, long, 1, ll)
FOR_EACH_SCHEDULE(DEFINE_LOOP_TESTS, long long, 1, lq)

static const struct {
    const char *name;
    void (*fn)(long, long, long);
} long_fns[] = {FOR_EACH_SCHEDULE(LOOP_FN_ENTRY, long, 1, ll)};
static const struct {
    const char *name;
    void (*fn)(long long, long long, long long);
} llong_fns[] = {FOR_EACH_SCHEDULE(LOOP_FN_ENTRY, long long, 1, lq)};

int main(void)
{
    static const long lparams[][3] = {
        {0, 1000, 1},
        {-(1L << 40), -(1L << 40) + 1000, 1},
        {(1L << 40), (1L << 40) + 3000, 7},
        {-(1L << 33) - 500, -(1L << 33) + 500, 3},
        {-7, 7, 1},
        {100, 100, 1},
        {99, 100, 3},
        {(1L << 62), (1L << 62) + 4000, 1L << 10},
        {-(1L << 61), (1L << 61), 1L << 51} /* huge span, 2048 iterations */,
    };
    static const long long qparams[][3] = {
        {-(1LL << 35), -(1LL << 35) + 2000, 9},
        {-600, 600, 1},
        {9223372036854775807LL - 1000, 9223372036854775807LL - 10, 1},
        {-9223372036854775807LL + 10, -9223372036854775807LL + 900, 3},
    };
    loop_what = "long";
    for (unsigned f = 0; f < sizeof long_fns / sizeof long_fns[0]; f++)
        for (unsigned p = 0; p < sizeof lparams / sizeof lparams[0]; p++)
            long_fns[f].fn(lparams[p][0], lparams[p][1], lparams[p][2]);
    loop_what = "long long";
    for (unsigned f = 0; f < sizeof llong_fns / sizeof llong_fns[0]; f++)
        for (unsigned p = 0; p < sizeof qparams / sizeof qparams[0]; p++)
            llong_fns[f].fn(qparams[p][0], qparams[p][1], qparams[p][2]);
    return 0;
}
