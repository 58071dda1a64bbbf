/* teams.c — the teams construct on the host: a league of initial threads run one after another. */
#include <limits.h>
#include "abi/export.h"
#include "core/team.h"

/* Default league size when neither num_teams nor OMP_NUM_TEAMS says. */
#define TEAMS_DEFAULT_COUNT 3u

/*
 * Host teams do not synchronize with each other, so running the league's
 * teams in sequence on the encountering thread is a conforming schedule (it
 * is what libgomp does). Each team's parallel regions still get full teams
 * of threads, limited by thread_limit.
 */
ILAN_EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                                unsigned thread_limit, unsigned flags)
{
    (void)flags;
    struct ilan_thread *ts = thread_self();
    unsigned saved_limit = ts->icv.thread_limit;
    if (thread_limit == 0)
        thread_limit = (unsigned)icv_global.teams_thread_limit;
    if (thread_limit)
        ts->icv.thread_limit = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
    if (num_teams == 0)
        num_teams = icv_global.nteams > 0 ? (unsigned)icv_global.nteams : TEAMS_DEFAULT_COUNT;
    ts->teams_count = (int)num_teams;
    for (ts->teams_num = 0; ts->teams_num < (int)num_teams; ts->teams_num++)
        fn(data);
    ts->teams_count = 0;
    ts->teams_num = 0;
    ts->icv.thread_limit = saved_limit;
}

/* OpenMP 5.1 teams inside a (host-fallback) target region: gcc calls this
 * in a loop, first with first=true, running the body once per true result. */
ILAN_EXPORT _Bool GOMP_teams4(unsigned num_teams_low, unsigned num_teams_high,
                              unsigned thread_limit, _Bool first)
{
    struct ilan_thread *ts = thread_self();
    if (!first) {
        if (++ts->teams_num < ts->teams_count)
            return true;
        ts->teams_num = 0;
        ts->teams_count = 0;
        return false;
    }
    if (thread_limit)
        ts->icv.thread_limit = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
    unsigned count = num_teams_high ? num_teams_high : num_teams_low;
    if (count == 0)
        count = icv_global.nteams > 0 ? (unsigned)icv_global.nteams : 1;
    ts->teams_count = (int)count;
    ts->teams_num = 0;
    return true;
}

/* OpenMP 4.0 teams in a target region: one team, with the thread limit. */
ILAN_EXPORT void GOMP_teams(unsigned num_teams, unsigned thread_limit)
{
    (void)num_teams;
    if (thread_limit)
        thread_self()->icv.thread_limit = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
}
