// loops_int.c - worksharing loops over int and unsigned: every schedule x chunk
// (none, 1, 3, 64) x direction x step, negative ranges, empty and
// single-iteration loops; lastprivate and a reduction checked against serial.
#include "_loops.h"

FOR_EACH_SCHEDULE(DEFINE_LOOP_TESTS, int, 1, li)
FOR_EACH_SCHEDULE(DEFINE_LOOP_TESTS, unsigned, 0, lu)

static const struct {
    const char *name;
    void (*fn)(int, int, int);
} int_fns[] = {FOR_EACH_SCHEDULE(LOOP_FN_ENTRY, int, 1, li)};
static const struct {
    const char *name;
    void (*fn)(unsigned, unsigned, unsigned);
} uns_fns[] = {FOR_EACH_SCHEDULE(LOOP_FN_ENTRY, unsigned, 0, lu)};

int main(void)
{
    static const int iparams[][3] = {
        {0, 1000, 1},  {0, 1000, 3},  {-500, 500, 7},
        {-1000, -10, 1}, {5, 5, 1} /* empty */, {5, 6, 1} /* one iteration */,
        {10, 0, 1} /* empty, lb > ub */, {0, 997, 13}, {-3, 2, 64},
        {-2147483647 + 10, -2147483647 + 300, 7}, {2147483647 - 500, 2147483647 - 5, 3},
    };
    static const unsigned uparams[][3] = {
        {0, 1000, 1}, {3, 1000, 7}, {4000000000u - 1000, 4000000000u, 3},
        {2147483000u, 2147484000u, 1} /* crosses 2^31 */, {7, 7, 1}, {7, 8, 2}, {9, 3, 1},
    };
    loop_what = "int";
    for (unsigned f = 0; f < sizeof int_fns / sizeof int_fns[0]; f++)
        for (unsigned p = 0; p < sizeof iparams / sizeof iparams[0]; p++)
            int_fns[f].fn(iparams[p][0], iparams[p][1], iparams[p][2]);
    loop_what = "unsigned";
    for (unsigned f = 0; f < sizeof uns_fns / sizeof uns_fns[0]; f++)
        for (unsigned p = 0; p < sizeof uparams / sizeof uparams[0]; p++)
            uns_fns[f].fn(uparams[p][0], uparams[p][1], uparams[p][2]);
    return 0;
}
