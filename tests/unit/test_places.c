/* test_places.c — OMP_PLACES and OMP_PROC_BIND as the OpenMP 5.1 spec defines them:
 * the parsers (config/parse.c) on valid and invalid values, the expansion of
 * explicit place lists into CPU sets, and abstract names on made-up machines
 * (topo/places.c). Expected lists are written out by hand from the spec's
 * rules, never taken from the code under test. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "config/icv.h"
#include "config/parse.h"
#include "topo/places.h"
#include "topo/topo.h"
#include "unit.h"



/* "{0,1},{2}": a place list written out, every CPU listed, in order. */
static const char *list_str(const struct place_list *l)
{
    static char buf[8192];
    size_t len = 0;
    buf[0] = 0;
    for (unsigned p = 0; p < l->n && len + 32 < sizeof buf; p++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, p ? ",{" : "{");
        for (unsigned i = l->first[p]; i < l->first[p + 1] && len + 16 < sizeof buf; i++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, i > l->first[p] ? ",%d" : "%d",
                                    l->cpus[i]);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "}");
    }
    return buf;
}

/* An explicit OMP_PLACES value expands to exactly `want`. */
static bool expands_to(const char *text, const char *want)
{
    struct place_list l = {0};
    int kind = -1;
    unsigned long count = 99;
    bool ok = parse_places(text, &kind, &count, &l) && kind == PLACES_EXPLICIT &&
              parse_places_syntax(text);
    if (ok && strcmp(list_str(&l), want) != 0) {
        fprintf(stderr, "  OMP_PLACES='%s' expands to %s, want %s\n", text, list_str(&l), want);
        ok = false;
    } else if (!ok) {
        fprintf(stderr, "  OMP_PLACES='%s' rejected, want %s\n", text, want);
    }
    place_list_free(&l);
    return ok;
}

/* An OMP_PLACES value is invalid, for the syntax check and the parser. */
static bool rejected(const char *text)
{
    struct place_list l = {0};
    int kind = -1;
    unsigned long count = 0;
    bool ok = parse_places(text, &kind, &count, &l);
    if (ok)
        fprintf(stderr, "  OMP_PLACES='%s' accepted as %s, want invalid\n", text, list_str(&l));
    place_list_free(&l);
    return !ok;
}

static bool abstract_is(const char *text, int want_kind, unsigned long want_count)
{
    struct place_list l = {0};
    int kind = -1;
    unsigned long count = 99;
    bool ok = parse_places(text, &kind, &count, &l) && parse_places_syntax(text);
    ok = ok && kind == want_kind && count == want_count && l.n == 0;
    place_list_free(&l);
    return ok;
}

static void test_abstract_names(void)
{
    CHECK(abstract_is("threads", PLACES_THREADS, 0));
    CHECK(abstract_is("cores", PLACES_CORES, 0));
    CHECK(abstract_is("ll_caches", PLACES_LL_CACHES, 0));
    CHECK(abstract_is("numa_domains", PLACES_NUMA_DOMAINS, 0));
    CHECK(abstract_is("sockets", PLACES_SOCKETS, 0));
    /* the spec's example: cores(4), the first 4 cores */
    CHECK(abstract_is("cores(4)", PLACES_CORES, 4));
    CHECK(abstract_is("threads(1)", PLACES_THREADS, 1));
    CHECK(abstract_is(" Sockets ( 2 ) ", PLACES_SOCKETS, 2));
    CHECK(abstract_is("NUMA_DOMAINS", PLACES_NUMA_DOMAINS, 0));
    CHECK(rejected("cores(0)"));
    CHECK(rejected("cores()"));
    CHECK(rejected("cores(4"));
    CHECK(rejected("cores(-1)"));
    CHECK(rejected("cores(4),threads"));
    CHECK(rejected("core"));
    CHECK(rejected("numa"));
    CHECK(rejected("cores threads"));
    CHECK(!parse_places_syntax("garbage") && rejected("garbage"));
}

static void test_explicit_lists(void)
{
    /* The spec's example: four equivalent ways to write 4 places of 4 CPUs. */
    const char *four = "{0,1,2,3},{4,5,6,7},{8,9,10,11},{12,13,14,15}";
    CHECK(expands_to("{0,1,2,3},{4,5,6,7},{8,9,10,11},{12,13,14,15}", four));
    CHECK(expands_to("{0:4},{4:4},{8:4},{12:4}", four));
    CHECK(expands_to("{0:4}:4:4", four));
    CHECK(expands_to(" { 0 : 4 } : 4 : 4 ", four));

    /* resource intervals: lower-bound:length[:stride] */
    CHECK(expands_to("{0:4:2}", "{0,2,4,6}"));
    CHECK(expands_to("{3:1}", "{3}"));
    CHECK(expands_to("{0:2,8:2}", "{0,1,8,9}"));
    CHECK(expands_to("{7:3:-2}", "{3,5,7}"));  /* negative stride: 7,5,3 */
    CHECK(expands_to("{5,1,3}", "{1,3,5}"));   /* a place is a set */
    CHECK(expands_to("{1,1,2}", "{1,2}"));

    /* place intervals: place:length[:stride], stride counted in CPUs */
    CHECK(expands_to("{0}:4", "{0},{1},{2},{3}"));
    CHECK(expands_to("{0}:4:2", "{0},{2},{4},{6}"));
    CHECK(expands_to("{0:2}:3:8", "{0,1},{8,9},{16,17}"));
    CHECK(expands_to("{0:4}:2:4", "{0,1,2,3},{4,5,6,7}"));
    CHECK(expands_to("{6,7}:4:-2", "{6,7},{4,5},{2,3},{0,1}"));
    CHECK(expands_to("{6,7}:2:-3", "{6,7},{3,4}"));

    /* bare resources: "5" is {5}; "0:4" is four places of one CPU */
    CHECK(expands_to("5", "{5}"));
    CHECK(expands_to("0,1,2,3", "{0},{1},{2},{3}"));
    CHECK(expands_to("0:4", "{0},{1},{2},{3}"));
    CHECK(expands_to("0:3:2", "{0},{2},{4}"));

    /* exclusion: "!n" in a place removes a CPU from it; "!{...}" in the list
       removes the identical places before it */
    CHECK(expands_to("{0:4,!1}", "{0,2,3}"));
    CHECK(expands_to("{6,5,!6}", "{5}"));
    CHECK(expands_to("{0},{1},!{0}", "{1}"));
    CHECK(expands_to("{0:2},{2:2},{0:2},!{0:2}", "{2,3}"));
    CHECK(expands_to("{0:2}:4:2,!{2:2}", "{0,1},{4,5},{6,7}"));
    CHECK(expands_to("{0},{1},{2},!1", "{0},{2}"));
    CHECK(expands_to("{0,1},{3,2,4},{6,5,!6},{6},{7:2:-1,!6}", "{0,1},{2,3,4},{5},{6},{7}"));

    /* duplicates are kept: the same place may appear twice */
    CHECK(expands_to("{0},{0}", "{0},{0}"));

    /* invalid */
    CHECK(rejected(""));
    CHECK(rejected("  "));
    CHECK(rejected("{}"));
    CHECK(rejected("{0,1"));
    CHECK(rejected("{0},"));
    CHECK(rejected("{0}{1}"));
    CHECK(rejected("{0:0}"));
    CHECK(rejected("{0}:0"));
    CHECK(rejected("{-1}"));
    CHECK(rejected("{0:4}:3:-8"));  /* the third place would start at CPU -16 */
    CHECK(rejected("{3:3:-2}"));    /* CPUs 3, 1, -1 */
    CHECK(rejected("{0,!0}"));      /* an empty place */
    CHECK(rejected("!{0}"));        /* no place left */
    CHECK(rejected("{0},!{0}"));
    CHECK(rejected("!{0}:2"));
    CHECK(rejected("{99999999999}"));
    CHECK(rejected("{a}"));
    CHECK(rejected("{0};{1}"));
    CHECK(rejected("threads,{0}"));
}

/* OMP_PROC_BIND: true, false, or a list for the nesting levels. */
static void test_proc_bind(void)
{
    unsigned v[8], n = 0;
    CHECK(parse_proc_bind("spread,close", v, 8, &n) && n == 2 && v[0] == ICV_BIND_SPREAD &&
          v[1] == ICV_BIND_CLOSE);
    CHECK(parse_proc_bind("spread, spread ,close", v, 8, &n) && n == 3 &&
          v[0] == ICV_BIND_SPREAD && v[1] == ICV_BIND_SPREAD && v[2] == ICV_BIND_CLOSE);
    CHECK(parse_proc_bind("primary", v, 8, &n) && n == 1 && v[0] == ICV_BIND_PRIMARY);
    CHECK(parse_proc_bind("master", v, 8, &n) && n == 1 && v[0] == ICV_BIND_PRIMARY);
    CHECK(parse_proc_bind("CLOSE", v, 8, &n) && n == 1 && v[0] == ICV_BIND_CLOSE);
    CHECK(parse_proc_bind("true", v, 8, &n) && n == 1 && v[0] == ICV_BIND_TRUE);
    CHECK(parse_proc_bind(" false ", v, 8, &n) && n == 1 && v[0] == ICV_BIND_FALSE);
    CHECK(parse_proc_bind("close,primary,spread", v, 8, &n) && n == 3 &&
          v[1] == ICV_BIND_PRIMARY);
    /* invalid: the spec's one-word values only alone; no empty items */
    n = 42;
    v[0] = 42;
    CHECK(!parse_proc_bind("sideways", v, 8, &n) && n == 42 && v[0] == 42);
    CHECK(!parse_proc_bind("", v, 8, &n));
    CHECK(!parse_proc_bind("true,spread", v, 8, &n));
    CHECK(!parse_proc_bind("spread,false", v, 8, &n));
    CHECK(!parse_proc_bind("spread,,close", v, 8, &n));
    CHECK(!parse_proc_bind(",spread", v, 8, &n));
    CHECK(!parse_proc_bind("spread close", v, 8, &n));
    CHECK(!parse_proc_bind("1", v, 8, &n));
}

/* Abstract names on made-up machines: every place's CPUs, in model order. */
static void test_on_models(void)
{
    struct topo_model m = {0};
    struct place_list l = {0};
    int real[] = {0, 1};

    /* pack:2 numa:2 core:2 pu:1 — 8 cores in 4 nodes */
    CHECK(machine_build_uniform(&m, 2, 2, 2, 1, real, 2));
    CHECK(places_from_model(&m, PLACES_CORES, 0, NULL, &l) &&
          !strcmp(list_str(&l), "{0},{1},{2},{3},{4},{5},{6},{7}"));
    CHECK(places_from_model(&m, PLACES_THREADS, 0, NULL, &l) && l.n == 8);
    CHECK(places_from_model(&m, PLACES_NUMA_DOMAINS, 0, NULL, &l) &&
          !strcmp(list_str(&l), "{0,1},{2,3},{4,5},{6,7}"));
    CHECK(places_from_model(&m, PLACES_SOCKETS, 0, NULL, &l) &&
          !strcmp(list_str(&l), "{0,1,2,3},{4,5,6,7}"));
    CHECK(places_from_model(&m, PLACES_NUMA_DOMAINS, 3, NULL, &l) &&
          !strcmp(list_str(&l), "{0,1},{2,3},{4,5}"));
    CHECK(places_from_model(&m, PLACES_CORES, 100, NULL, &l) && l.n == 8);

    /* pack:2 numa:2 core:2 pu:2 — threads and cores differ */
    CHECK(machine_build_uniform(&m, 2, 2, 2, 2, real, 2));
    CHECK(places_from_model(&m, PLACES_CORES, 0, NULL, &l) &&
          !strcmp(list_str(&l), "{0,1},{2,3},{4,5},{6,7},{8,9},{10,11},{12,13},{14,15}"));
    CHECK(places_from_model(&m, PLACES_THREADS, 4, NULL, &l) &&
          !strcmp(list_str(&l), "{0},{1},{2},{3}"));

    /* pack:2 numa:4 core:8 pu:1 — the 64-core, 8-node machine */
    CHECK(machine_build_uniform(&m, 2, 4, 8, 1, real, 2));
    CHECK(m.ncores == 64 && m.nnodes == 8 && m.npackages == 2);
    CHECK(places_from_model(&m, PLACES_CORES, 0, NULL, &l) && l.n == 64);
    CHECK(places_from_model(&m, PLACES_NUMA_DOMAINS, 0, NULL, &l) && l.n == 8);
    for (unsigned p = 0; p < l.n; p++)
        CHECK(l.first[p + 1] - l.first[p] == 8 && l.cpus[l.first[p]] == (int)(8 * p));
    CHECK(places_from_model(&m, PLACES_SOCKETS, 0, NULL, &l) && l.n == 2 &&
          l.first[1] == 32 && l.cpus[32] == 32);

    /* explicit lists on the model: a place with a CPU the model lacks goes */
    struct place_list in = {0};
    int kind;
    unsigned long count;
    unsigned dropped = 99;
    CHECK(parse_places("{0},{1000}", &kind, &count, &in));
    CHECK(places_filter(&m, &in, &l, &dropped) && dropped == 1 && !strcmp(list_str(&l), "{0}"));
    CHECK(parse_places("{60:8}", &kind, &count, &in)); /* 60..67: partly outside */
    CHECK(!places_filter(&m, &in, &l, &dropped) && dropped == 1);
    CHECK(parse_places("{0:8}:8:8", &kind, &count, &in));
    CHECK(places_filter(&m, &in, &l, &dropped) && dropped == 0 && l.n == 8);
    place_list_free(&in);
    place_list_free(&l);
    machine_free(&m);
}

int main(void)
{
    test_abstract_names();
    test_explicit_lists();
    test_proc_bind();
    test_on_models();
    return unit_report();
}
