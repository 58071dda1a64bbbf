// nested.c - nested parallel regions and the level/ancestor query routines.
// ilan-test: vary=ILAN_BARRIER=tree,central
#include "check.h"

static void check_out_of_range(int level)
{
    CHECK(omp_get_ancestor_thread_num(-1) == -1, "ancestor(-1)");
    CHECK(omp_get_team_size(-1) == -1, "team_size(-1)");
    CHECK(omp_get_ancestor_thread_num(level + 1) == -1, "ancestor(level+1)");
    CHECK(omp_get_team_size(level + 1) == -1, "team_size(level+1)");
    CHECK(omp_get_ancestor_thread_num(level + 5) == -1, "ancestor(level+5)");
    CHECK(omp_get_team_size(level + 5) == -1, "team_size(level+5)");
    CHECK(omp_get_ancestor_thread_num(0) == 0, "ancestor(0)");
    CHECK(omp_get_team_size(0) == 1, "team_size(0)");
}

/* Two levels: outer team of `o` threads, inner of `in` threads.
   max_active_levels `mal`.  Checks every query at every level. */
static void two_levels(int o, int in, int mal)
{
    omp_set_max_active_levels(mal);
    CHECK(omp_get_max_active_levels() == mal, "set mal %d", mal);
    int exp_outer = mal >= 1 ? o : 1;
    int exp_inner = mal >= 2 ? in : 1;
    int outer_seen[64] = {0};
    int inner_seen[64][64];
    memset(inner_seen, 0, sizeof inner_seen);
    int inner_n[64];
    for (int i = 0; i < 64; i++) inner_n[i] = -1;

#pragma omp parallel num_threads(o)
    {
        int oid = omp_get_thread_num();
        int on = omp_get_num_threads();
        CHECK(on == exp_outer, "outer size %d expected %d (mal %d)", on, exp_outer, mal);
        CHECK(omp_get_level() == 1, "outer level %d", omp_get_level());
        CHECK(omp_get_active_level() == (on > 1), "outer active level %d",
              omp_get_active_level());
        CHECK(omp_get_ancestor_thread_num(1) == oid, "ancestor(1) at level 1");
        CHECK(omp_get_team_size(1) == on, "team_size(1) at level 1");
        check_out_of_range(1);
#pragma omp atomic
        outer_seen[oid]++;

#pragma omp parallel num_threads(in)
        {
            int iid = omp_get_thread_num();
            int inn = omp_get_num_threads();
            int active_expected = (on > 1) + (inn > 1);
            CHECK(inn == exp_inner, "inner size %d expected %d (mal %d, outer %d)", inn,
                  exp_inner, mal, on);
            CHECK(omp_get_level() == 2, "inner level %d", omp_get_level());
            CHECK(omp_get_active_level() == active_expected, "inner active level %d vs %d",
                  omp_get_active_level(), active_expected);
            CHECK(omp_in_parallel() == (active_expected > 0), "in_parallel inner");
            CHECK(omp_get_ancestor_thread_num(2) == iid, "ancestor(2)");
            CHECK(omp_get_ancestor_thread_num(1) == oid, "ancestor(1) = %d, outer id %d",
                  omp_get_ancestor_thread_num(1), oid);
            CHECK(omp_get_team_size(2) == inn, "team_size(2)");
            CHECK(omp_get_team_size(1) == on, "team_size(1) from inner %d vs %d",
                  omp_get_team_size(1), on);
            check_out_of_range(2);
#pragma omp atomic
            inner_seen[oid][iid]++;
#pragma omp single
            inner_n[oid] = inn;
            /* barrier of inner team must not involve other inner teams */
#pragma omp barrier
            CHECK(inner_n[oid] == inn, "inner single value");
        }
        CHECK(omp_get_level() == 1, "back at level 1");
        CHECK(omp_get_num_threads() == on, "outer size restored");
        CHECK(omp_get_thread_num() == oid, "outer id restored");
    }
    CHECK(omp_get_level() == 0, "back at level 0");
    for (int i = 0; i < exp_outer; i++) {
        CHECK(outer_seen[i] == 1, "outer thread %d ran %d times", i, outer_seen[i]);
        CHECK(inner_n[i] == exp_inner, "inner team of %d has %d", i, inner_n[i]);
        for (int j = 0; j < exp_inner; j++)
            CHECK(inner_seen[i][j] == 1, "inner [%d][%d] ran %d times", i, j,
                  inner_seen[i][j]);
    }
}

static void three_levels(int a, int b, int c, int mal)
{
    omp_set_max_active_levels(mal);
    int ea = mal >= 1 ? a : 1, eb = mal >= 2 ? b : 1, ec = mal >= 3 ? c : 1;
    int count = 0;
#pragma omp parallel num_threads(a)
    {
        int i1 = omp_get_thread_num();
        CHECK(omp_get_num_threads() == ea, "L1 size");
#pragma omp parallel num_threads(b)
        {
            int i2 = omp_get_thread_num();
            CHECK(omp_get_num_threads() == eb, "L2 size %d vs %d", omp_get_num_threads(), eb);
#pragma omp parallel num_threads(c)
            {
                CHECK(omp_get_num_threads() == ec, "L3 size %d vs %d (mal %d)",
                      omp_get_num_threads(), ec, mal);
                CHECK(omp_get_level() == 3, "L3 level");
                int act = (ea > 1) + (eb > 1) + (ec > 1);
                CHECK(omp_get_active_level() == act, "L3 active %d vs %d",
                      omp_get_active_level(), act);
                CHECK(omp_get_ancestor_thread_num(1) == i1, "L3 anc1");
                CHECK(omp_get_ancestor_thread_num(2) == i2, "L3 anc2");
                CHECK(omp_get_ancestor_thread_num(3) == omp_get_thread_num(), "L3 anc3");
                CHECK(omp_get_team_size(1) == ea, "L3 ts1");
                CHECK(omp_get_team_size(2) == eb, "L3 ts2");
                CHECK(omp_get_team_size(3) == ec, "L3 ts3");
                check_out_of_range(3);
#pragma omp atomic
                count++;
            }
        }
    }
    CHECK(count == ea * eb * ec, "3-level count %d vs %d", count, ea * eb * ec);
}

int main(void)
{
    int init_mal = omp_get_max_active_levels();
    const char *env = getenv("OMP_MAX_ACTIVE_LEVELS");
    if (env) {
        int v = atoi(env);
        CHECK(init_mal == v, "OMP_MAX_ACTIVE_LEVELS=%s but ICV %d", env, init_mal);
    }
    int supported = omp_get_supported_active_levels();
    CHECK(supported >= 1, "supported active levels %d", supported);
    CHECK(init_mal >= 1 && init_mal <= supported, "initial mal %d", init_mal);

    if (env && atoi(env) == 3) {
        /* env variant: 3 active levels allowed from the start */
        int count = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
        {
            CHECK(omp_get_active_level() == 3, "env mal=3: active level %d",
                  omp_get_active_level());
#pragma omp atomic
            count++;
        }
        CHECK(count == 8, "env mal=3 count %d", count);
    }

    for (int mal = 0; mal <= 3; mal++) {
        two_levels(2, 2, mal);
        two_levels(3, 2, mal);
        two_levels(2, 5, mal);
        two_levels(4, 4, mal);
        three_levels(2, 2, 2, mal);
        three_levels(2, 3, 2, mal);
    }
    /* serialized outer (team of 1) does not count as active */
    omp_set_max_active_levels(1);
    {
        int inner = 0;
#pragma omp parallel num_threads(1)
#pragma omp parallel num_threads(3)
#pragma omp single
        inner = omp_get_num_threads();
        CHECK(inner == 3, "inactive outer + inner: %d", inner);
    }

    /* negative value for omp_set_max_active_levels is ignored */
    omp_set_max_active_levels(2);
    omp_set_max_active_levels(-3);
    CHECK(omp_get_max_active_levels() == 2, "negative mal not ignored: %d",
          omp_get_max_active_levels());

    /* deprecated omp_set_nested / omp_get_nested */
    omp_set_max_active_levels(1);
    CHECK(omp_get_nested() == 0, "get_nested with mal 1");
    omp_set_nested(1);
    CHECK(omp_get_nested() == 1, "get_nested after set_nested(1)");
    CHECK(omp_get_max_active_levels() > 1, "set_nested(1) must raise mal, got %d",
          omp_get_max_active_levels());
    {
        int inner = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp single
        inner = omp_get_num_threads();
        CHECK(inner == 2, "nested enabled inner %d", inner);
    }
    omp_set_nested(0);
    CHECK(omp_get_nested() == 0, "get_nested after set_nested(0)");
    CHECK(omp_get_max_active_levels() == 1, "set_nested(0) must set mal 1, got %d",
          omp_get_max_active_levels());
    {
        int inner = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp single
        inner = omp_get_num_threads();
        CHECK(inner == 1, "nested disabled inner %d", inner);
    }

    /* setting the ICV inside a parallel region affects only that task */
    omp_set_max_active_levels(2);
    omp_set_num_threads(3);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) omp_set_num_threads(2);
        else omp_set_num_threads(4);
        int want = omp_get_thread_num() == 0 ? 2 : 4;
#pragma omp parallel
#pragma omp single
        CHECK(omp_get_num_threads() == want, "per-task nthreads-var: %d vs %d",
              omp_get_num_threads(), want);
    }
    CHECK(omp_get_max_threads() == 3, "implicit task ICV leaked: %d", omp_get_max_threads());
    return 0;
}
