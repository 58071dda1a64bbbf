/* test_bubble.c — unit tests of the bubble schedulers' decisions (sched/bubble.c), no OpenMP. */
#include <string.h>

#include "sched/bubble.h"
#include "unit.h"

/* A machine of n domains of `cores` cores, domain d on node d. */
static struct bubble_machine machine(unsigned n, unsigned cores)
{
    struct bubble_machine m = {.ndomains = n};
    for (unsigned d = 0; d < n; d++) {
        m.ncores[d] = cores;
        m.node[d] = (int)d;
    }
    return m;
}

static int dom[256];
static unsigned core[256];

/* Two teams of 2 on 2 nodes of 2 cores: one node each, nothing spilled. */
static void test_balanced(enum bubble_sched s)
{
    struct bubble_machine m = machine(2, 2);
    struct bubble_in in[2] = {{2, -1, 0}, {2, -1, 1}};
    struct bubble_out out[2];
    CHECK(bubble_place(s, &m, 2, in, out, dom, core), "place");
    CHECK(out[0].home == 0 && out[1].home == 1, "homes %d %d", out[0].home, out[1].home);
    for (unsigned b = 0; b < 2; b++) {
        CHECK(out[b].spilled == 0, "bubble %u spilled %u", b, out[b].spilled);
        for (unsigned t = 0; t < 2; t++)
            CHECK(dom[out[b].first + t] == out[b].home && core[out[b].first + t] == t,
                  "bubble %u thread %u on %d/%u", b, t, dom[out[b].first + t], core[out[b].first + t]);
    }
    struct mem_domains md;
    bubble_mem_domains(s, &m, &out[1], 2, dom, &md);
    CHECK(md.n == 1 && md.node[0] == 1, "bubble 1's memory on node %d (%u domains)", md.node[0], md.n);
}

/* Teams of 3 and 1: the big one first, home node 0, its third thread
 * spills to node 1, where the small one lives; its memory follows its
 * threads only under the memory scheduler. */
static void test_imbalanced(enum bubble_sched s)
{
    struct bubble_machine m = machine(2, 2);
    struct bubble_in in[2] = {{1, -1, 0}, {3, -1, 1}};
    struct bubble_out out[2];
    CHECK(bubble_place(s, &m, 2, in, out, dom, core), "place");
    CHECK(out[1].home == 0 && out[1].spilled == 1, "big: home %d, %u spilled", out[1].home,
          out[1].spilled);
    CHECK(out[0].home == 1 && out[0].spilled == 0, "small: home %d", out[0].home);
    unsigned f = out[1].first;
    CHECK(dom[f] == 0 && dom[f + 1] == 0 && dom[f + 2] == 1, "big's threads on %d %d %d", dom[f],
          dom[f + 1], dom[f + 2]);
    /* Every core used once: node 1's cores go to the spilled thread and the small team. */
    CHECK(core[f + 2] != core[out[0].first], "two threads on node 1's core %u", core[f + 2]);
    struct mem_domains md;
    bubble_mem_domains(s, &m, &out[1], 3, dom, &md);
    if (s == BUBBLE_MEMORY)
        CHECK(md.n == 2 && md.node[0] == 0 && md.weight[0] == 2 && md.node[1] == 1 &&
                  md.weight[1] == 1,
              "memory: big's memory over %u nodes", md.n);
    else
        CHECK(md.n == 1 && md.node[0] == 0, "cache: big's memory on its home (%u nodes)", md.n);
}

/* The memory scheduler draws a bubble to its memory's domain; cache does not. */
static void test_pref(void)
{
    struct bubble_machine m = machine(4, 2);
    struct bubble_in in[2] = {{2, 3, 0}, {2, 3, 1}};
    struct bubble_out out[2];
    CHECK(bubble_place(BUBBLE_MEMORY, &m, 2, in, out, dom, core), "place");
    CHECK(out[0].home == 3 && out[0].spilled == 0, "first: home %d", out[0].home);
    /* Both prefer node 3: the second is homed there and, full, spills to node 2. */
    CHECK(out[1].home == 3 && out[1].spilled == 2 && dom[out[1].first] == 2, "second: home %d, %u spilled",
          out[1].home, out[1].spilled);
    CHECK(bubble_place(BUBBLE_CACHE, &m, 2, in, out, dom, core), "place");
    CHECK(out[0].home == 0 && out[1].home == 1, "cache homes %d %d", out[0].home, out[1].home);
}

/* More threads than cores: everyone shares, nothing lost; bad input. */
static void test_oversubscribed(void)
{
    struct bubble_machine m = machine(2, 1);
    struct bubble_in in[3] = {{2, -1, 0}, {2, -1, 1}, {1, -1, 2}};
    struct bubble_out out[3];
    CHECK(bubble_place(BUBBLE_CACHE, &m, 3, in, out, dom, core), "place");
    unsigned per[2] = {0, 0};
    for (unsigned i = 0; i < 5; i++) {
        CHECK(dom[i] >= 0 && dom[i] < 2 && core[i] == 0, "thread %u on %d/%u", i, dom[i], core[i]);
        per[dom[i]]++;
    }
    CHECK(per[0] + per[1] == 5 && (per[0] == 3 || per[1] == 3), "spread %u %u", per[0], per[1]);
    in[1].threads = 0;
    CHECK(!bubble_place(BUBBLE_CACHE, &m, 3, in, out, dom, core), "a bubble of 0 threads");
    m.ndomains = 0;
    CHECK(!bubble_place(BUBBLE_CACHE, &m, 1, in, out, dom, core), "no domain");
}

int main(void)
{
    test_balanced(BUBBLE_CACHE);
    test_balanced(BUBBLE_MEMORY);
    test_imbalanced(BUBBLE_CACHE);
    test_imbalanced(BUBBLE_MEMORY);
    test_pref();
    test_oversubscribed();
    return unit_report();
}
