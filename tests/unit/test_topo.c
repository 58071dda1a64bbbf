/* test_topo.c — the machine model's pure helpers and the place assignment arithmetic (OpenMP 5.1 2.6.2). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "config/icv.h"
#include "config/parse.h"
#include "topo/bind.h"
#include "topo/places.h"
#include "topo/topo.h"
#include "unit.h"



static void test_round_robin(void)
{
    int real[] = {3, 7};
    int out[5];
    machine_map_round_robin(5, real, 2, out);
    CHECK(out[0] == 3 && out[1] == 7 && out[2] == 3 && out[3] == 7 && out[4] == 3);
    int one[] = {1};
    machine_map_round_robin(5, one, 1, out);
    CHECK(out[0] == 1 && out[4] == 1);
}

static void test_fallback_distances(void)
{
    int pkg[] = {0, 0, 1, 1};
    int d[16];
    machine_fallback_distances(4, pkg, d);
    CHECK(d[0] == 10 && d[1] == 20 && d[2] == 30 && d[3] == 30);
    CHECK(d[2 * 4 + 3] == 20 && d[3 * 4 + 3] == 10 && d[3 * 4 + 0] == 30);
}

static void test_reserve(void)
{
    /* 2 packages of 4 cores: 0-3, 4-7 */
    int pkg[] = {0, 0, 0, 0, 1, 1, 1, 1};
    bool r[8];
    CHECK(machine_pick_reserved(8, pkg, 2, 3, r));
    CHECK(r[3] && r[7] && r[2] && !r[6] && !r[0] && !r[1] && !r[4] && !r[5]);
    CHECK(machine_pick_reserved(8, pkg, 2, 0, r) && !r[0] && !r[7]);
    CHECK(!machine_pick_reserved(8, pkg, 2, 8, r) && !r[7]);
    CHECK(!machine_pick_reserved(8, pkg, 2, -1, r));
    /* unequal packages: 1 core + 3 cores; 3 reserved = last of each, then package 1 again */
    int pkg2[] = {0, 1, 1, 1};
    bool r2[4];
    CHECK(machine_pick_reserved(4, pkg2, 2, 3, r2));
    CHECK(r2[0] && r2[3] && r2[2] && !r2[1]);
}

/* Checks one thread's slot. */
static bool slot_is(const struct bind_slot *s, int place, int off, int len)
{
    return s->place == place && s->part_off == off && s->part_len == len;
}

static void test_assign(void)
{
    struct bind_slot s[16];
    /* close, T <= P: consecutive places from the master's, wrapping */
    bind_assign(ICV_BIND_CLOSE, 0, 8, 0, 4, s);
    CHECK(slot_is(&s[0], 0, 0, 8) && slot_is(&s[3], 3, 0, 8));
    bind_assign(ICV_BIND_CLOSE, 0, 8, 6, 4, s);
    CHECK(s[0].place == 6 && s[1].place == 7 && s[2].place == 0 && s[3].place == 1);
    /* TRUE is close */
    bind_assign(ICV_BIND_TRUE, 0, 8, 6, 4, s);
    CHECK(s[2].place == 0);
    /* close, T > P: 8 places, 10 threads: the first 2 places (from the master's) get 2 */
    bind_assign(ICV_BIND_CLOSE, 0, 8, 0, 10, s);
    CHECK(s[0].place == 0 && s[1].place == 0 && s[2].place == 1 && s[3].place == 1);
    CHECK(s[4].place == 2 && s[9].place == 7);
    /* close inside a partition [4, 8) with master on 6, T = 3 */
    bind_assign(ICV_BIND_CLOSE, 4, 4, 6, 3, s);
    CHECK(slot_is(&s[0], 6, 4, 4) && slot_is(&s[1], 7, 4, 4) && slot_is(&s[2], 4, 4, 4));
    /* primary: everybody on the master's place */
    bind_assign(ICV_BIND_PRIMARY, 0, 8, 5, 3, s);
    CHECK(slot_is(&s[0], 5, 0, 8) && slot_is(&s[2], 5, 0, 8));
    /* spread, the spec's example: 8 places p0..p7, 4 threads, master on p0:
     * sub-partitions {0,1},{2,3},{4,5},{6,7}, threads on 0, 2, 4, 6 */
    bind_assign(ICV_BIND_SPREAD, 0, 8, 0, 4, s);
    CHECK(slot_is(&s[0], 0, 0, 2) && slot_is(&s[1], 2, 2, 2) && slot_is(&s[2], 4, 4, 2) &&
          slot_is(&s[3], 6, 6, 2));
    /* ... master on p3: it keeps p3 in {2,3}; the others follow, wrapping */
    bind_assign(ICV_BIND_SPREAD, 0, 8, 3, 4, s);
    CHECK(slot_is(&s[0], 3, 2, 2) && slot_is(&s[1], 4, 4, 2) && slot_is(&s[2], 6, 6, 2) &&
          slot_is(&s[3], 0, 0, 2));
    /* uneven: 8 places, 3 threads: sub-partitions of 3, 3, 2 */
    bind_assign(ICV_BIND_SPREAD, 0, 8, 0, 3, s);
    CHECK(slot_is(&s[0], 0, 0, 3) && slot_is(&s[1], 3, 3, 3) && slot_is(&s[2], 6, 6, 2));
    bind_assign(ICV_BIND_SPREAD, 0, 8, 7, 3, s);
    CHECK(slot_is(&s[0], 7, 6, 2) && slot_is(&s[1], 0, 0, 3) && slot_is(&s[2], 3, 3, 3));
    /* spread, T > P: one place per sub-partition, runs as close */
    bind_assign(ICV_BIND_SPREAD, 0, 2, 0, 5, s);
    CHECK(slot_is(&s[0], 0, 0, 1) && slot_is(&s[2], 0, 0, 1) && slot_is(&s[3], 1, 1, 1) &&
          slot_is(&s[4], 1, 1, 1));
    /* nested: the spec's example, spread 2 then close 4 inside {4..7} */
    bind_assign(ICV_BIND_SPREAD, 0, 8, 0, 2, s);
    CHECK(slot_is(&s[1], 4, 4, 4));
    bind_assign(ICV_BIND_CLOSE, 4, 4, 4, 4, s);
    CHECK(s[0].place == 4 && s[3].place == 7 && s[3].part_off == 4);
    /* a team of one */
    bind_assign(ICV_BIND_SPREAD, 2, 3, 3, 1, s);
    CHECK(slot_is(&s[0], 3, 2, 3));
}

static void test_model_places(void)
{
    struct topo_model m = {0};
    int real[] = {0, 1};
    /* pack:2 numa:2 core:2 pu:2 -> 8 cores, 16 PUs, 4 nodes */
    CHECK(machine_build_uniform(&m, 2, 2, 2, 2, real, 2));
    CHECK(m.npus == 16 && m.ncores == 8 && m.nnodes == 4 && m.npackages == 2);
    CHECK(m.pu_real[5] == 1 && m.pu_real[6] == 0 && m.dist_fallback);
    CHECK(m.dist[0 * 4 + 1] == 20 && m.dist[0 * 4 + 2] == 30);
    struct place_list l = {0};
    CHECK(places_from_model(&m, PLACES_CORES, 0, NULL, &l) && l.n == 8);
    CHECK(l.first[1] - l.first[0] == 2 && l.cpus[2] == 2 && l.cpus[3] == 3);
    CHECK(places_from_model(&m, PLACES_THREADS, 0, NULL, &l) && l.n == 16);
    CHECK(places_from_model(&m, PLACES_NUMA_DOMAINS, 0, NULL, &l) && l.n == 4);
    CHECK(l.first[1] == 4 && l.cpus[4] == 4);
    CHECK(places_from_model(&m, PLACES_SOCKETS, 0, NULL, &l) && l.n == 2 && l.first[1] == 8);
    CHECK(places_from_model(&m, PLACES_LL_CACHES, 0, NULL, &l) && l.n == 4);
    CHECK(places_from_model(&m, PLACES_CORES, 3, NULL, &l) && l.n == 3);
    bool excl[8] = {false, false, false, true, false, false, false, true};
    CHECK(places_from_model(&m, PLACES_CORES, 0, excl, &l) && l.n == 6);
    CHECK(places_from_model(&m, PLACES_SOCKETS, 0, excl, &l) && l.n == 2 &&
          l.first[1] == 6);

    /* explicit lists: CPUs outside the model are dropped */
    struct place_list in = {0};
    int kind;
    unsigned long count;
    unsigned dropped;
    CHECK(parse_places("{0:4}:5:4", &kind, &count, &in) && kind == PLACES_EXPLICIT && in.n == 5);
    CHECK(places_filter(&m, &in, &l, &dropped) && l.n == 4 && dropped == 1);
    CHECK(parse_places("{20,21}", &kind, &count, &in));
    CHECK(!places_filter(&m, &in, &l, &dropped) && dropped == 1);
    place_list_free(&in);
    place_list_free(&l);
    machine_free(&m);
}

int main(void)
{
    test_round_robin();
    test_fallback_distances();
    test_reserve();
    test_assign();
    test_model_places();
    return unit_report();
}
