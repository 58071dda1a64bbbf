/* victims.c — a thread's victim order over its team's locality groups (own group first, then the nearest), built once per team shape and kept per thread. */
#include "ilan/victims.h"

#include <stdlib.h>
#include "base/fatal.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "ilan/groups.h"
#include "topo/topo.h"

/* Distances between a team's groups: NUMA distances when groups are nodes;
 * otherwise how far apart their ids are (caches or cores numbered close
 * together share more). */
static int *group_distances(const struct team_groups *g)
{
    unsigned G = g->ngroups;
    int *dist = malloc((size_t)G * G * sizeof *dist);
    if (!dist)
        ilan_fatal("out of memory (victim order, %u groups)", G);
    for (unsigned a = 0; a < G; a++)
        for (unsigned b = 0; b < G; b++) {
            int ia = g->model_id[a], ib = g->model_id[b];
            if (g->kind == GROUP_NODE && ia >= 0 && ib >= 0)
                dist[a * G + b] = topo_distance(ia, ib);
            else
                dist[a * G + b] = ia > ib ? ia - ib : ib - ia;
        }
    return dist;
}

const struct loop_victims *ilan_victims(struct ilan_thread *ts, struct team *team, bool locality,
                                        enum victim_user user)
{
    unsigned n = team->nthreads, self = ts->team_id;
    const struct team_ilan *ti = team->ilan;
    const struct team_groups *g = ti ? &ti->groups : NULL;
    if (g && (g->nthreads != n || g->ngroups < 2))
        g = NULL;
    uint64_t stamp = g ? ti->stamp : 0;
    struct loop_victim_cache *vc = ws_steal_thread_cache(user);
    if (vc->valid && vc->self == self && vc->nthreads == n && vc->locality == locality &&
        vc->stamp == stamp)
        return &vc->v;
    if (vc->cap < n) {
        ws_steal_cache_free(vc);
        vc->v.order = malloc(n * sizeof *vc->v.order);
        vc->v.seg_end = malloc(n * sizeof *vc->v.seg_end);
        vc->v.group_of = malloc(n * sizeof *vc->v.group_of);
        if (!vc->v.order || !vc->v.seg_end || !vc->v.group_of)
            ilan_fatal("out of memory (victim order, %u threads)", n);
        vc->cap = n;
    }
    int *dist = g ? group_distances(g) : NULL;
    enum victim_shape shape = !locality                  ? VICTIMS_FLAT
                              : user == VICTIMS_FOR_LOOPS ? VICTIMS_BY_DISTANCE
                                                          : VICTIMS_BY_GROUP;
    loop_victims_build(self, n, g ? g->slot_group : NULL, g ? g->ngroups : 1, dist, shape, &vc->v);
    free(dist);
    vc->valid = true;
    vc->self = self;
    vc->nthreads = n;
    vc->locality = locality;
    vc->stamp = stamp;
    return &vc->v;
}
