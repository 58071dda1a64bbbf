// teams.c - host teams (gcc lowers to GOMP_teams_reg): num_teams, team numbers,
// thread_limit, distribute and distribute parallel for covering every
// iteration once, parallel regions inside teams.
#include "check.h"

#define N 1000
#define MAXTEAMS 64

int main(void)
{
    int nteams = -1;
    int team_seen[MAXTEAMS] = {0};
    int bad = 0;

    /* num_teams(3) is an upper bound: 1..3 teams, numbered 0..n-1 */
#pragma omp teams num_teams(3)
    {
        int t = omp_get_team_num(), n = omp_get_num_teams();
        if (t == 0) nteams = n;
        if (t >= 0 && t < MAXTEAMS) __atomic_add_fetch(&team_seen[t], 1, __ATOMIC_RELAXED);
        if (n < 1 || n > 3 || t < 0 || t >= n) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        /* a parallel region inside a team: its own level-1 team */
#pragma omp parallel num_threads(2)
        {
            if (omp_get_level() != 1 || omp_get_num_threads() > 2 || omp_get_team_num() != t)
                __atomic_add_fetch(&bad, 100, __ATOMIC_RELAXED);
        }
    }
    CHECK(bad == 0, "teams queries wrong (%d)", bad);
    CHECK(nteams >= 1 && nteams <= 3, "num_teams(3) gave %d teams", nteams);
    for (int t = 0; t < nteams; t++) CHECK(team_seen[t] == 1, "team %d ran %d times", t, team_seen[t]);
    for (int t = nteams; t < MAXTEAMS; t++) CHECK(team_seen[t] == 0, "extra team %d", t);

    /* distribute: every iteration exactly once across teams */
    {
        static int hit[N];
        memset(hit, 0, sizeof hit);
#pragma omp teams num_teams(4)
#pragma omp distribute
        for (int i = 0; i < N; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
        for (int i = 0; i < N; i++) CHECK(hit[i] == 1, "distribute iteration %d ran %d", i, hit[i]);

        memset(hit, 0, sizeof hit);
#pragma omp teams num_teams(3)
#pragma omp distribute dist_schedule(static, 7)
        for (int i = N - 1; i >= 0; i--) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
        for (int i = 0; i < N; i++) CHECK(hit[i] == 1, "dist_schedule iteration %d ran %d", i, hit[i]);

        /* distribute parallel for: teams x threads */
        memset(hit, 0, sizeof hit);
        long sum = 0;
#pragma omp teams num_teams(2) thread_limit(3) reduction(+ : sum)
#pragma omp distribute parallel for schedule(dynamic, 5) reduction(+ : sum)
        for (int i = 0; i < N; i++) {
            __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
            sum += i;
        }
        for (int i = 0; i < N; i++) CHECK(hit[i] == 1, "distribute parallel for %d ran %d", i, hit[i]);
        CHECK(sum == (long)N * (N - 1) / 2, "teams reduction %ld", sum);

        /* collapse(2) distribute */
        static int h2[30][33];
        memset(h2, 0, sizeof h2);
#pragma omp teams num_teams(3)
#pragma omp distribute collapse(2)
        for (int i = 0; i < 30; i++)
            for (int j = 0; j < 33; j++) __atomic_add_fetch(&h2[i][j], 1, __ATOMIC_RELAXED);
        for (int i = 0; i < 30; i++)
            for (int j = 0; j < 33; j++) CHECK(h2[i][j] == 1, "distribute collapse [%d][%d]", i, j);
    }

    /* parallel inside teams honours thread_limit */
    {
        int maxsz = 0, tl = -1;
#pragma omp teams num_teams(2) thread_limit(2)
        {
#pragma omp parallel num_threads(4)
            {
                int n = omp_get_num_threads();
                if (omp_get_team_num() == 0 && omp_get_thread_num() == 0) tl = omp_get_thread_limit();
#pragma omp critical
                if (n > maxsz) maxsz = n;
            }
        }
        CHECK(tl == 2, "thread_limit inside teams %d", tl);
        CHECK(maxsz >= 1 && maxsz <= 2, "parallel in teams with thread_limit(2) has %d threads", maxsz);
    }

    /* omp_set_num_teams sets the default; teams getters back to defaults after */
    omp_set_num_teams(2);
    {
        int n = -1;
#pragma omp teams
        if (omp_get_team_num() == 0) n = omp_get_num_teams();
        CHECK(n >= 1 && n <= 2, "omp_set_num_teams(2): %d teams", n);
    }
    CHECK(omp_get_num_teams() == 1 && omp_get_team_num() == 0, "teams getters after teams");

    /* repeated teams regions */
    for (int r = 0; r < 50; r++) {
        int cnt = 0;
        int want = 1 + r % 4;
#pragma omp teams num_teams(want)
        __atomic_add_fetch(&cnt, 1, __ATOMIC_RELAXED);
        CHECK(cnt >= 1 && cnt <= want, "round %d: %d teams for num_teams(%d)", r, cnt, want);
    }
    return 0;
}
