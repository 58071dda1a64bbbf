/* omp_api.c — the omp_* routines that read and set ICVs and query levels, teams and devices (C and Fortran). */
#include <limits.h>
#include <stdint.h>
#include "abi/export.h"
#include "base/omp_types.h"
#include "config/icv.h"
#include "core/team.h"
#include "core/task_exec.h"
#include "core/thread.h"
#include "base/tunables.h"

/* The calling thread's data-environment ICVs, about to be changed by an
 * omp_set_* routine (an included task saves its creator's first). */
static struct icv *icv_for_write(void)
{
    struct ilan_thread *ts = thread_self();
    task_icv_will_change(ts);
    return &ts->icv;
}

/* ---- threads and levels --------------------------------------------------- */

ILAN_EXPORT void omp_set_num_threads(int n)
{
    icv_for_write()->nthreads = n > 0 ? (unsigned)n : 1u;
}

ILAN_EXPORT int omp_get_max_threads(void)
{
    return (int)thread_self()->icv.nthreads;
}

ILAN_EXPORT int omp_get_num_threads(void)
{
    struct team *t = thread_self()->team;
    return t ? (int)t->nthreads : 1;
}

ILAN_EXPORT int omp_get_thread_num(void)
{
    struct ilan_thread *ts = thread_self();
    return ts->team ? (int)ts->team_id : 0;
}

ILAN_EXPORT int omp_get_num_procs(void)
{
    return (int)icv_global.num_procs;
}

/* True inside an active region (a team of more than one thread), at any level. */
ILAN_EXPORT int omp_in_parallel(void)
{
    struct team *t = thread_self()->team;
    return t && t->active_level > 0;
}

ILAN_EXPORT int omp_get_level(void)
{
    struct team *t = thread_self()->team;
    return t ? (int)t->level : 0;
}

ILAN_EXPORT int omp_get_active_level(void)
{
    struct team *t = thread_self()->team;
    return t ? (int)t->active_level : 0;
}

/* The team at `level` (1..current level) and, in *id, the calling thread's
 * ancestor's number in it; NULL for level 0 or a level out of range. Walks
 * out through the parents: a team's master_saved is its master's state in
 * the enclosing team. */
static struct team *api_team_at(int level, unsigned *id)
{
    struct ilan_thread *ts = thread_self();
    struct team *t = ts->team;
    unsigned my_id = ts->team_id;
    if (!t || level < 1 || (unsigned)level > t->level)
        return NULL;
    while (t->level > (unsigned)level) {
        my_id = t->master_saved.team_id;
        t = t->parent;
    }
    *id = my_id;
    return t;
}

ILAN_EXPORT int omp_get_ancestor_thread_num(int level)
{
    unsigned id;
    if (level == 0)
        return 0;
    return api_team_at(level, &id) ? (int)id : -1;
}

ILAN_EXPORT int omp_get_team_size(int level)
{
    unsigned id;
    if (level == 0)
        return 1;
    struct team *t = api_team_at(level, &id);
    return t ? (int)t->nthreads : -1;
}

/* ---- ICVs --------------------------------------------------------------- */

ILAN_EXPORT void omp_set_dynamic(int val)
{
    icv_for_write()->dyn = val != 0;
}

ILAN_EXPORT int omp_get_dynamic(void)
{
    return thread_self()->icv.dyn;
}

/* Deprecated in OpenMP 5.0; as libgomp 12, a view of max-active-levels-var. */
ILAN_EXPORT void omp_set_nested(int val)
{
    struct icv *icv = icv_for_write();
    if (val)
        icv->max_active_levels = ILAN_SUPPORTED_ACTIVE_LEVELS;
    else if (icv->max_active_levels > 1)
        icv->max_active_levels = 1;
}

ILAN_EXPORT int omp_get_nested(void)
{
    unsigned mal = thread_self()->icv.max_active_levels;
    return mal > 1 && mal > (unsigned)omp_get_active_level();
}

/* An unknown kind is ignored (ilan's own kinds are known); a chunk < 1 means the default (0 for static,
 * 1 for dynamic and guided); auto keeps the previous chunk (libgomp 12). */
ILAN_EXPORT void omp_set_schedule(omp_sched_t kind, int chunk_size)
{
    struct icv *icv = icv_for_write();
    switch ((unsigned)kind & ~(unsigned)omp_sched_monotonic) {
    case omp_sched_static:
        icv->run_sched_chunk = chunk_size < 1 ? 0 : chunk_size;
        break;
    case omp_sched_dynamic:
    case omp_sched_guided:
    case ICV_SCHED_TSS: /* ilan's kinds (config/icv.h), as OMP_SCHEDULE names them */
    case ICV_SCHED_STATIC_STEAL:
    case ICV_SCHED_ADAPTIVE:
    case ICV_SCHED_FAC2:
    case ICV_SCHED_AF:
        icv->run_sched_chunk = chunk_size < 1 ? 1 : chunk_size;
        break;
    case omp_sched_auto:
        break;
    default:
        return;
    }
    icv->run_sched = (unsigned)kind;
}

ILAN_EXPORT void omp_get_schedule(omp_sched_t *kind, int *chunk_size)
{
    const struct icv *icv = &thread_self()->icv;
    *kind = (omp_sched_t)icv->run_sched;
    *chunk_size = (int)icv->run_sched_chunk;
}

ILAN_EXPORT int omp_get_thread_limit(void)
{
    unsigned tl = thread_self()->icv.thread_limit;
    return tl > INT_MAX ? INT_MAX : (int)tl;
}

/* Negative values are ignored; larger than supported means supported. */
ILAN_EXPORT void omp_set_max_active_levels(int max_levels)
{
    if (max_levels < 0)
        return;
    icv_for_write()->max_active_levels = (unsigned)max_levels > ILAN_SUPPORTED_ACTIVE_LEVELS
                                             ? ILAN_SUPPORTED_ACTIVE_LEVELS
                                             : (unsigned)max_levels;
}

ILAN_EXPORT int omp_get_max_active_levels(void)
{
    return (int)thread_self()->icv.max_active_levels;
}

ILAN_EXPORT int omp_get_supported_active_levels(void)
{
    return (int)ILAN_SUPPORTED_ACTIVE_LEVELS;
}

ILAN_EXPORT int omp_get_cancellation(void)
{
    return icv_global.cancellation;
}

ILAN_EXPORT omp_proc_bind_t omp_get_proc_bind(void)
{
    return (omp_proc_bind_t)thread_self()->icv.bind;
}

ILAN_EXPORT int omp_get_max_task_priority(void)
{
    return icv_global.max_task_priority;
}

/* ---- devices: the host is the only one ------------------------------------ */

ILAN_EXPORT void omp_set_default_device(int device_num)
{
    icv_for_write()->default_device = device_num;
}

ILAN_EXPORT int omp_get_default_device(void)
{
    return thread_self()->icv.default_device;
}

ILAN_EXPORT int omp_get_num_devices(void)
{
    return 0;
}

/* OpenMP 5.x: the host's device number equals omp_get_num_devices(). */
ILAN_EXPORT int omp_get_initial_device(void)
{
    return omp_get_num_devices();
}

ILAN_EXPORT int omp_get_device_num(void)
{
    return omp_get_initial_device();
}

ILAN_EXPORT int omp_is_initial_device(void)
{
    return 1;
}

/* ---- teams -------------------------------------------------------------- */

ILAN_EXPORT int omp_get_num_teams(void)
{
    struct ilan_thread *ts = thread_self();
    return ts->teams_count > 0 ? ts->teams_count : 1;
}

ILAN_EXPORT int omp_get_team_num(void)
{
    struct ilan_thread *ts = thread_self();
    return ts->teams_count > 0 ? ts->teams_num : 0;
}

/* nteams-var and teams-thread-limit-var are device-wide (libgomp 12). */
ILAN_EXPORT void omp_set_num_teams(int num_teams)
{
    if (num_teams >= 0)
        icv_global.nteams = num_teams;
}

ILAN_EXPORT int omp_get_max_teams(void)
{
    return icv_global.nteams;
}

ILAN_EXPORT void omp_set_teams_thread_limit(int thread_limit)
{
    if (thread_limit >= 0)
        icv_global.teams_thread_limit = thread_limit;
}

ILAN_EXPORT int omp_get_teams_thread_limit(void)
{
    return icv_global.teams_thread_limit;
}

/* ---- Fortran bindings ----------------------------------------------------- */

/* gfortran passes arguments by reference: INTEGER(4)/LOGICAL(4) as int32_t,
 * the _8_ variants (-fdefault-integer-8) as int64_t, clamped to int here. */
static int api_clamp(int64_t v)
{
    return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : (int)v;
}

/* name_() returning the C routine's result. */
#define FORTRAN_GETTER(type, name) \
    ILAN_EXPORT type name##_(void) { return (type)name(); }

/* name_(int32 *) and name_8_(int64 *) calling name(int). */
#define FORTRAN_SETTER(name)                                                    \
    ILAN_EXPORT void name##_(const int32_t *v) { name(*v); }                    \
    ILAN_EXPORT void name##_8_(const int64_t *v) { name(api_clamp(*v)); }

/* name_(int32 *) and name_8_(int64 *) returning name(int). */
#define FORTRAN_QUERY(name)                                                     \
    ILAN_EXPORT int32_t name##_(const int32_t *v) { return name(*v); }          \
    ILAN_EXPORT int32_t name##_8_(const int64_t *v) { return name(api_clamp(*v)); }

FORTRAN_GETTER(int32_t, omp_get_max_threads)
FORTRAN_GETTER(int32_t, omp_get_num_threads)
FORTRAN_GETTER(int32_t, omp_get_thread_num)
FORTRAN_GETTER(int32_t, omp_get_num_procs)
FORTRAN_GETTER(int32_t, omp_in_parallel)
FORTRAN_GETTER(int32_t, omp_get_level)
FORTRAN_GETTER(int32_t, omp_get_active_level)
FORTRAN_GETTER(int32_t, omp_get_dynamic)
FORTRAN_GETTER(int32_t, omp_get_nested)
FORTRAN_GETTER(int32_t, omp_get_thread_limit)
FORTRAN_GETTER(int32_t, omp_get_max_active_levels)
FORTRAN_GETTER(int32_t, omp_get_supported_active_levels)
FORTRAN_GETTER(int32_t, omp_get_cancellation)
FORTRAN_GETTER(int32_t, omp_get_proc_bind)
FORTRAN_GETTER(int32_t, omp_get_max_task_priority)
FORTRAN_GETTER(int32_t, omp_get_default_device)
FORTRAN_GETTER(int32_t, omp_get_num_devices)
FORTRAN_GETTER(int32_t, omp_get_initial_device)
FORTRAN_GETTER(int32_t, omp_get_device_num)
FORTRAN_GETTER(int32_t, omp_is_initial_device)
FORTRAN_GETTER(int32_t, omp_get_num_teams)
FORTRAN_GETTER(int32_t, omp_get_team_num)
FORTRAN_GETTER(int32_t, omp_get_max_teams)
FORTRAN_GETTER(int32_t, omp_get_teams_thread_limit)

FORTRAN_SETTER(omp_set_num_threads)
FORTRAN_SETTER(omp_set_max_active_levels)
FORTRAN_SETTER(omp_set_default_device)
FORTRAN_SETTER(omp_set_num_teams)
FORTRAN_SETTER(omp_set_teams_thread_limit)

FORTRAN_QUERY(omp_get_ancestor_thread_num)
FORTRAN_QUERY(omp_get_team_size)

/* LOGICAL arguments: any non-zero value is true. */
ILAN_EXPORT void omp_set_dynamic_(const int32_t *v) { omp_set_dynamic(*v != 0); }
ILAN_EXPORT void omp_set_dynamic_8_(const int64_t *v) { omp_set_dynamic(*v != 0); }
ILAN_EXPORT void omp_set_nested_(const int32_t *v) { omp_set_nested(*v != 0); }
ILAN_EXPORT void omp_set_nested_8_(const int64_t *v) { omp_set_nested(*v != 0); }

/* The schedule kind is always INTEGER(omp_sched_kind), i.e. 4 bytes. */
ILAN_EXPORT void omp_set_schedule_(const int32_t *kind, const int32_t *chunk)
{
    omp_set_schedule((omp_sched_t)*kind, *chunk);
}

ILAN_EXPORT void omp_set_schedule_8_(const int32_t *kind, const int64_t *chunk)
{
    omp_set_schedule((omp_sched_t)*kind, api_clamp(*chunk));
}

ILAN_EXPORT void omp_get_schedule_(int32_t *kind, int32_t *chunk)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    *kind = (int32_t)k;
    *chunk = c;
}

ILAN_EXPORT void omp_get_schedule_8_(int32_t *kind, int64_t *chunk)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    *kind = (int32_t)k;
    *chunk = c;
}
