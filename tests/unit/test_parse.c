/* test_parse.c — unit tests of the environment-variable parsers (config/parse.c). */
#include <stdio.h>
#include <string.h>
#include "config/icv.h"
#include "config/parse.h"
#include "unit.h"



#define MONO ICV_SCHED_MONOTONIC

static void test_bool(void)
{
    bool b = false;
    CHECK(parse_bool("true", &b) && b);
    CHECK(parse_bool("  TRUE  ", &b) && b);
    CHECK(parse_bool("False", &b) && !b);
    CHECK(parse_bool("\tfalse\n", &b) && !b);
    b = true;
    CHECK(!parse_bool("", &b) && b);
    CHECK(!parse_bool("   ", &b));
    CHECK(!parse_bool("1", &b));
    CHECK(!parse_bool("yes", &b));
    CHECK(!parse_bool("truex", &b));
    CHECK(!parse_bool("true false", &b));
    CHECK(!parse_bool("maybe", &b));
    CHECK(b); /* untouched by failures */
}

static void test_ulong(void)
{
    unsigned long v = 99;
    CHECK(parse_ulong("0", 0, 10, &v) && v == 0);
    CHECK(parse_ulong(" 7 ", 0, 10, &v) && v == 7);
    CHECK(parse_ulong("+3", 1, 10, &v) && v == 3);
    CHECK(parse_ulong("18446744073709551615", 0, (unsigned long)-1, &v) && v == (unsigned long)-1);
    v = 42;
    CHECK(!parse_ulong("0", 1, 10, &v) && v == 42);
    CHECK(!parse_ulong("11", 1, 10, &v));
    CHECK(!parse_ulong("-1", 0, 10, &v));
    CHECK(!parse_ulong("-0", 0, 10, &v));
    CHECK(!parse_ulong("", 0, 10, &v));
    CHECK(!parse_ulong("two", 0, 10, &v));
    CHECK(!parse_ulong("4x", 0, 10, &v));
    CHECK(!parse_ulong("4 4", 0, 10, &v));
    CHECK(!parse_ulong("18446744073709551616", 0, (unsigned long)-1, &v));
    CHECK(!parse_ulong("0x10", 0, 100, &v));
    CHECK(v == 42);
}

static void test_list(void)
{
    unsigned vals[ILAN_MAX_NEST_LIST] = {0};
    unsigned n = 0;
    CHECK(parse_unsigned_list("4", 1000, vals, ILAN_MAX_NEST_LIST, &n) && n == 1 && vals[0] == 4);
    CHECK(parse_unsigned_list("4,3,2", 1000, vals, ILAN_MAX_NEST_LIST, &n) && n == 3 &&
          vals[0] == 4 && vals[1] == 3 && vals[2] == 2);
    CHECK(parse_unsigned_list(" 2 , 3 ", 1000, vals, ILAN_MAX_NEST_LIST, &n) && n == 2 &&
          vals[0] == 2 && vals[1] == 3);
    CHECK(parse_unsigned_list("1,2,3,4,5", 1000, vals, 2, &n) && n == 2 && vals[1] == 2);
    n = 77;
    CHECK(!parse_unsigned_list("", 1000, vals, ILAN_MAX_NEST_LIST, &n) && n == 77);
    CHECK(!parse_unsigned_list("0", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("-4", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("4x", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("abc", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("4,", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list(",4", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("4,,3", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("4,0", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("1001", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_unsigned_list("4;3", 1000, vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(n == 77);
}

static void test_schedule(void)
{
    unsigned k = 0;
    long c = -5;
    /* the OpenMP spec's examples */
    CHECK(parse_schedule("guided,4", &k, &c) && k == ICV_SCHED_GUIDED && c == 4);
    CHECK(parse_schedule("dynamic", &k, &c) && k == ICV_SCHED_DYNAMIC && c == 1);
    CHECK(parse_schedule("nonmonotonic:dynamic,4", &k, &c) && k == ICV_SCHED_DYNAMIC && c == 4);
    /* static defaults to monotonic, chunk 0 */
    CHECK(parse_schedule("static", &k, &c) && k == (ICV_SCHED_STATIC | MONO) && c == 0);
    CHECK(parse_schedule("STATIC,5", &k, &c) && k == (ICV_SCHED_STATIC | MONO) && c == 5);
    CHECK(parse_schedule("static,0", &k, &c) && k == (ICV_SCHED_STATIC | MONO) && c == 0);
    CHECK(parse_schedule("nonmonotonic:static", &k, &c) && k == ICV_SCHED_STATIC && c == 0);
    CHECK(parse_schedule("monotonic:guided,5", &k, &c) && k == (ICV_SCHED_GUIDED | MONO) && c == 5);
    CHECK(parse_schedule(" Monotonic : dynamic , 7 ", &k, &c) &&
          k == (ICV_SCHED_DYNAMIC | MONO) && c == 7);
    CHECK(parse_schedule("dynamic,0", &k, &c) && k == ICV_SCHED_DYNAMIC && c == 1);
    CHECK(parse_schedule("auto", &k, &c) && k == ICV_SCHED_AUTO && c == 1);
    CHECK(parse_schedule("guided,2147483647", &k, &c) && c == 2147483647);
    k = 123;
    c = 456;
    CHECK(!parse_schedule("", &k, &c));
    CHECK(!parse_schedule("bogus", &k, &c));
    CHECK(!parse_schedule("dynamic,", &k, &c));
    CHECK(!parse_schedule("dynamic,,3", &k, &c));
    CHECK(!parse_schedule("dynamic,-1", &k, &c));
    CHECK(!parse_schedule("dynamic,x", &k, &c));
    CHECK(!parse_schedule("dynamic,4x", &k, &c));
    CHECK(!parse_schedule("dynamic,2147483648", &k, &c));
    CHECK(!parse_schedule("dynamic7", &k, &c));
    CHECK(!parse_schedule("sometimes:dynamic,4", &k, &c));
    CHECK(!parse_schedule("monotonic", &k, &c));
    CHECK(!parse_schedule("monotonic:", &k, &c));
    CHECK(!parse_schedule("monotonic dynamic", &k, &c));
    CHECK(!parse_schedule("runtime", &k, &c));
    CHECK(!parse_schedule("static,5,6", &k, &c));
    CHECK(k == 123 && c == 456);
}

static void test_stacksize(void)
{
    unsigned long b = 0;
    /* the OpenMP spec's examples */
    CHECK(parse_stacksize("2000 k", &b) && b == 2000ul << 10);
    CHECK(parse_stacksize("10M", &b) && b == 10ul << 20);
    CHECK(parse_stacksize(" 10 M ", &b) && b == 10ul << 20);
    CHECK(parse_stacksize("20 m", &b) && b == 20ul << 20);
    CHECK(parse_stacksize(" 1G", &b) && b == 1ul << 30);
    CHECK(parse_stacksize("20000", &b) && b == 20000ul << 10);
    /* units */
    CHECK(parse_stacksize("10", &b) && b == 10240);
    CHECK(parse_stacksize("10B", &b) && b == 10);
    CHECK(parse_stacksize("10b", &b) && b == 10);
    CHECK(parse_stacksize("10K", &b) && b == 10240);
    CHECK(parse_stacksize("64M", &b) && b == 64ul << 20);
    CHECK(parse_stacksize("10G", &b) && b == 10ul << 30);
    b = 7;
    CHECK(!parse_stacksize("", &b));
    CHECK(!parse_stacksize("lots", &b));
    CHECK(!parse_stacksize("-1", &b));
    CHECK(!parse_stacksize("12Q", &b));
    CHECK(!parse_stacksize("10MB", &b));
    CHECK(!parse_stacksize("M", &b));
    CHECK(!parse_stacksize("10 M x", &b));
    CHECK(!parse_stacksize("18446744073709551615G", &b));
    CHECK(!parse_stacksize("17179869184G", &b)); /* 2^34 GiB overflows 64 bits */
    CHECK(b == 7);
}

static void test_keywords(void)
{
    /* Names with a hyphen, a prefix of one another's (ILAN_DLB's). */
    static const char *const dlb[] = {"ws", "na-ws", "na-rp"};
    int k = -9;
    CHECK(parse_keyword("na-ws", dlb, 3, &k) && k == 1);
    CHECK(parse_keyword(" NA-RP ", dlb, 3, &k) && k == 2);
    CHECK(parse_keyword("ws", dlb, 3, &k) && k == 0);
    k = -9;
    CHECK(!parse_keyword("na", dlb, 3, &k));
    CHECK(!parse_keyword("na-wsx", dlb, 3, &k));
    CHECK(!parse_keyword("na-rp x", dlb, 3, &k));
    CHECK(!parse_keyword("", dlb, 3, &k));
    CHECK(k == -9);

    int v = -9;
    CHECK(parse_wait_policy("active", &v) && v == 1);
    CHECK(parse_wait_policy(" ACTIVE ", &v) && v == 1);
    CHECK(parse_wait_policy("Passive", &v) && v == 0);
    v = -9;
    CHECK(!parse_wait_policy("", &v));
    CHECK(!parse_wait_policy("sometimes", &v));
    CHECK(!parse_wait_policy("activex", &v));
    CHECK(!parse_wait_policy("active passive", &v));
    CHECK(v == -9);

    CHECK(parse_target_offload("default", &v) && v == 0);
    CHECK(parse_target_offload("DISABLED", &v) && v == 1);
    CHECK(parse_target_offload(" mandatory ", &v) && v == 2);
    v = -9;
    CHECK(!parse_target_offload("", &v));
    CHECK(!parse_target_offload("enabled", &v));
    CHECK(!parse_target_offload("default,", &v));
    CHECK(v == -9);

    CHECK(parse_display_env("true", &v) && v == 1);
    CHECK(parse_display_env("FALSE", &v) && v == 0);
    CHECK(parse_display_env(" verbose ", &v) && v == 2);
    v = -9;
    CHECK(!parse_display_env("loud", &v));
    CHECK(!parse_display_env("", &v));
    CHECK(!parse_display_env("1", &v));
    CHECK(v == -9);
}

static void test_proc_bind(void)
{
    unsigned vals[ILAN_MAX_NEST_LIST] = {0};
    unsigned n = 0;
    CHECK(parse_proc_bind("false", vals, ILAN_MAX_NEST_LIST, &n) && n == 1 &&
          vals[0] == ICV_BIND_FALSE);
    CHECK(parse_proc_bind("TRUE", vals, ILAN_MAX_NEST_LIST, &n) && n == 1 &&
          vals[0] == ICV_BIND_TRUE);
    CHECK(parse_proc_bind("primary", vals, ILAN_MAX_NEST_LIST, &n) && vals[0] == ICV_BIND_PRIMARY);
    CHECK(parse_proc_bind("master", vals, ILAN_MAX_NEST_LIST, &n) && vals[0] == ICV_BIND_PRIMARY);
    CHECK(parse_proc_bind("close", vals, ILAN_MAX_NEST_LIST, &n) && vals[0] == ICV_BIND_CLOSE);
    CHECK(parse_proc_bind("spread", vals, ILAN_MAX_NEST_LIST, &n) && vals[0] == ICV_BIND_SPREAD);
    /* the OpenMP spec's example */
    CHECK(parse_proc_bind("spread, spread, close", vals, ILAN_MAX_NEST_LIST, &n) && n == 3 &&
          vals[0] == ICV_BIND_SPREAD && vals[1] == ICV_BIND_SPREAD && vals[2] == ICV_BIND_CLOSE);
    CHECK(parse_proc_bind("spread,master", vals, ILAN_MAX_NEST_LIST, &n) && n == 2 &&
          vals[1] == ICV_BIND_PRIMARY);
    n = 55;
    CHECK(!parse_proc_bind("", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("sideways", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("true,close", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("false,spread", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("close,true", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("close,false", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("close,", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("close spread", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(!parse_proc_bind("closer", vals, ILAN_MAX_NEST_LIST, &n));
    CHECK(n == 55);
}

static void test_spincount(void)
{
    unsigned long long v = 0;
    CHECK(parse_spincount("infinite", &v) && v == UINT64_MAX);
    CHECK(parse_spincount(" INFINITY ", &v) && v == UINT64_MAX);
    CHECK(parse_spincount("0", &v) && v == 0);
    CHECK(parse_spincount("300000", &v) && v == 300000);
    CHECK(parse_spincount("10k", &v) && v == 10000);
    CHECK(parse_spincount("10 K", &v) && v == 10000);
    CHECK(parse_spincount("3M", &v) && v == 3000000);
    CHECK(parse_spincount("2g", &v) && v == 2000000000ull);
    CHECK(parse_spincount("30G", &v) && v == 30000000000ull);
    CHECK(parse_spincount("1T", &v) && v == 1000000000000ull);
    CHECK(parse_spincount("18446744073709551615G", &v) && v == UINT64_MAX); /* saturates */
    v = 5;
    CHECK(!parse_spincount("", &v));
    CHECK(!parse_spincount("forever", &v));
    CHECK(!parse_spincount("-1", &v));
    CHECK(!parse_spincount("10x", &v));
    CHECK(!parse_spincount("10kk", &v));
    CHECK(!parse_spincount("infinite1", &v));
    CHECK(v == 5);
}

static void test_allocator(void)
{
    uintptr_t a = 0;
    CHECK(parse_allocator("omp_default_mem_alloc", &a) && a == 1);
    CHECK(parse_allocator("omp_large_cap_mem_alloc", &a) && a == 2);
    CHECK(parse_allocator("omp_const_mem_alloc", &a) && a == 3);
    CHECK(parse_allocator(" OMP_HIGH_BW_MEM_ALLOC ", &a) && a == 4);
    CHECK(parse_allocator("omp_low_lat_mem_alloc", &a) && a == 5);
    CHECK(parse_allocator("omp_cgroup_mem_alloc", &a) && a == 6);
    CHECK(parse_allocator("omp_pteam_mem_alloc", &a) && a == 7);
    CHECK(parse_allocator("omp_thread_mem_alloc", &a) && a == 8);
    a = 99;
    CHECK(!parse_allocator("", &a));
    CHECK(!parse_allocator("omp_null_allocator", &a));
    CHECK(!parse_allocator("omp_default_mem_alloc_x", &a));
    CHECK(!parse_allocator("omp_default_mem_space", &a));
    CHECK(!parse_allocator("omp_default_mem_alloc:pinned=true", &a));
    CHECK(a == 99);
    /* A memory space with a partition trait (OpenMP 5.2's form). */
    uintptr_t ms = 9, part = 0;
    CHECK(parse_allocator_space("omp_default_mem_space", &ms, &part) && ms == 0 && part == 15);
    CHECK(parse_allocator_space("omp_large_cap_mem_space:partition=nearest", &ms, &part) &&
          ms == 1 && part == 16);
    CHECK(parse_allocator_space("omp_default_mem_space : partition = blocked", &ms, &part) &&
          part == 17);
    CHECK(parse_allocator_space("omp_default_mem_space:partition=interleaved", &ms, &part) &&
          part == 18);
    CHECK(parse_allocator_space("omp_default_mem_space:partition=environment", &ms, &part) &&
          part == 15);
    CHECK(!parse_allocator_space("omp_default_mem_space:partition=bogus", &ms, &part));
    CHECK(!parse_allocator_space("omp_default_mem_space:pinned=true", &ms, &part));
    CHECK(!parse_allocator_space("omp_default_mem_space:partition=blocked,x", &ms, &part));
    CHECK(!parse_allocator_space("omp_default_mem_alloc", &ms, &part));
    CHECK(strcmp(parse_allocator_name(1), "omp_default_mem_alloc") == 0);
    CHECK(strcmp(parse_allocator_name(8), "omp_thread_mem_alloc") == 0);
    CHECK(parse_allocator_name(0) == NULL && parse_allocator_name(9) == NULL);
}

static void test_places(void)
{
    /* abstract names; the OpenMP spec's examples */
    CHECK(parse_places_syntax("threads"));
    CHECK(parse_places_syntax("threads(4)"));
    CHECK(parse_places_syntax("cores"));
    CHECK(parse_places_syntax(" CORES ( 2 ) "));
    CHECK(parse_places_syntax("ll_caches"));
    CHECK(parse_places_syntax("numa_domains(1)"));
    CHECK(parse_places_syntax("sockets"));
    CHECK(parse_places_syntax("{0,1,2,3},{4,5,6,7},{8,9,10,11},{12,13,14,15}"));
    CHECK(parse_places_syntax("{0:4},{4:4},{8:4},{12:4}"));
    CHECK(parse_places_syntax("{0:4}:4:4"));
    /* explicit lists */
    CHECK(parse_places_syntax("{0,1,2}"));
    CHECK(parse_places_syntax("{0:4}"));
    CHECK(parse_places_syntax("{0:4:2}"));
    CHECK(parse_places_syntax("{0:4}:3:8"));
    CHECK(parse_places_syntax("{0:4}:3"));
    CHECK(parse_places_syntax("{0:4}:3:-4"));
    CHECK(parse_places_syntax("{0:4},!{0:4}"));
    CHECK(parse_places_syntax("{0,1,!1}"));
    CHECK(parse_places_syntax(" { 0 , 1 } , { 2 : 2 } "));
    CHECK(parse_places_syntax("0,1,2,3"));
    CHECK(parse_places_syntax("0:4"));
    CHECK(parse_places_syntax("0:4:2"));
    /* invalid */
    CHECK(!parse_places_syntax(""));
    CHECK(!parse_places_syntax("   "));
    CHECK(!parse_places_syntax("garbage"));
    CHECK(!parse_places_syntax("thread"));
    CHECK(!parse_places_syntax("threads("));
    CHECK(!parse_places_syntax("threads()"));
    CHECK(!parse_places_syntax("threads(0)"));
    CHECK(!parse_places_syntax("threads(4"));
    CHECK(!parse_places_syntax("threads(4) x"));
    CHECK(!parse_places_syntax("threads,cores"));
    CHECK(!parse_places_syntax("{}"));
    CHECK(!parse_places_syntax("{0,1"));
    CHECK(!parse_places_syntax("{0,}"));
    CHECK(!parse_places_syntax("{0:0}"));
    CHECK(!parse_places_syntax("{0:}"));
    CHECK(!parse_places_syntax("{0:4:}"));
    CHECK(!parse_places_syntax("{!0:4}"));
    CHECK(!parse_places_syntax("!{0}:2"));
    CHECK(!parse_places_syntax("{0}:0"));
    CHECK(!parse_places_syntax("{0}:65536"));
    CHECK(!parse_places_syntax("{-1}"));
    CHECK(!parse_places_syntax("{0},"));
    CHECK(!parse_places_syntax("{0}{1}"));
    CHECK(!parse_places_syntax("{0}:40000,{1}:40000")); /* more than 65536 places */
    CHECK(!parse_places_syntax("{a}"));
}

/* The places parse_cpu_affinity made, as "{a},{b},..." in buf. */
static const char *affinity_places(const char *text, char *buf, size_t size)
{
    struct place_list l = {0};
    size_t used = 0;
    buf[0] = '\0';
    if (!parse_cpu_affinity(text, &l))
        return "invalid";
    for (unsigned i = 0; i < l.n && used + 16 < size; i++) {
        CHECK(l.first[i + 1] == l.first[i] + 1); /* one CPU per place */
        used += (size_t)snprintf(buf + used, size - used, "%s{%d}", i ? "," : "", l.cpus[l.first[i]]);
    }
    place_list_free(&l);
    return buf;
}

static void test_cpu_affinity(void)
{
    char b[256];
    CHECK(strcmp(affinity_places("0", b, sizeof b), "{0}") == 0);
    CHECK(strcmp(affinity_places("1 0", b, sizeof b), "{1},{0}") == 0);
    CHECK(strcmp(affinity_places(" 3,1 , 2 ", b, sizeof b), "{3},{1},{2}") == 0);
    CHECK(strcmp(affinity_places("0-3", b, sizeof b), "{0},{1},{2},{3}") == 0);
    CHECK(strcmp(affinity_places("0-6:3 1", b, sizeof b), "{0},{3},{6},{1}") == 0);
    CHECK(strcmp(affinity_places("1,0,1", b, sizeof b), "{1},{0},{1}") == 0); /* repeats kept */
    CHECK(strcmp(affinity_places("2-2", b, sizeof b), "{2}") == 0);
    const char *bad[] = {"", "  ", "abc", "1-0", "0-3:0", "0-", "-1", "1 x", "0,,1", "0 1,", "1.5",
                         "0-3:", "99999999999"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(strcmp(affinity_places(bad[i], b, sizeof b), "invalid") == 0);
}

static void test_file_pattern(void)
{
    char b[64];
    CHECK(parse_file_pattern("run.json", 42, 3, b, sizeof b) && strcmp(b, "run.json") == 0);
    CHECK(parse_file_pattern("r%r-p%p.json", 42, 3, b, sizeof b) && strcmp(b, "r3-p42.json") == 0);
    CHECK(parse_file_pattern("%p%p", 7, 0, b, sizeof b) && strcmp(b, "77") == 0);
    CHECK(parse_file_pattern("100%%", 1, 0, b, sizeof b) && strcmp(b, "100%") == 0);
    CHECK(!parse_file_pattern("x%q", 1, 0, b, sizeof b));
    CHECK(!parse_file_pattern("x%", 1, 0, b, sizeof b));
    CHECK(!parse_file_pattern("abcdef", 1, 0, b, 6)); /* no room for the NUL */
    CHECK(parse_file_pattern("abcde", 1, 0, b, 6) && strcmp(b, "abcde") == 0);
    CHECK(!parse_file_pattern("%p", 123456, 0, b, 4));
}

static void test_probability(void)
{
    double p = -1;
    CHECK(parse_probability("1", &p) && p == 1.0);
    CHECK(parse_probability("0", &p) && p == 0.0);
    CHECK(parse_probability(" 0.5 ", &p) && p == 0.5);
    CHECK(parse_probability(".03", &p) && p > 0.0299 && p < 0.0301);
    CHECK(parse_probability("1.000", &p) && p == 1.0);
    p = -1;
    CHECK(!parse_probability("1.5", &p) && p == -1);
    CHECK(!parse_probability("-0.5", &p));
    CHECK(!parse_probability("", &p));
    CHECK(!parse_probability(".", &p));
    CHECK(!parse_probability("0.5x", &p));
    CHECK(!parse_probability("1e-1", &p));
    CHECK(!parse_probability("2", &p));
}

int main(void)
{
    test_probability();
    test_bool();
    test_ulong();
    test_list();
    test_schedule();
    test_stacksize();
    test_keywords();
    test_proc_bind();
    test_spincount();
    test_allocator();
    test_places();
    test_cpu_affinity();
    test_file_pattern();
    return unit_report();
}
