/* test_sim_engine.c — the simulator's engine: determinism, the model's sanity laws, and that its decisions come from the policy functions it is given. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "unit.h"

/* Costs and speeds of the made-up machine (sim/README.md's names). */
static const char *const PARAMS =
    "param compute_scale 1\n"
    "param node_bandwidth_gbs %g\n"
    "param local_latency_ns 90\n"
    "param lines_in_flight 10\n"
    "param llc_mb 16\n"
    "param llc_bandwidth_gbs 50\n"
    "param task_create_ns 100\n"
    "param task_start_ns 50\n"
    "param claim_ns 40\n"
    "param steal_ns 300\n"
    "param steal_fail_ns 100\n"
    "param wake_ns 2000\n"
    "param barrier_ns 300\n"
    "param launch_ns 200\n"
    "param pop_ns 20\n";

/* The input of a machine of `nodes` nodes of `cpn` cores (distances 10 /
 * 20 within a package of two nodes / 30), one thread per core, running
 * `program` under `policy`. */
static char *machine_input(const char *policy, unsigned nodes, unsigned cpn, double bandwidth,
                           const char *program)
{
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    fprintf(f, "ilan-sim 1\nseed 7\npolicy %s\ntimeline 0\ncores %u\n", policy, nodes * cpn);
    for (unsigned c = 0; c < nodes * cpn; c++)
        fprintf(f, "core %u %u %u %u\n", c, c / cpn, c / cpn, c / (2 * cpn));
    fprintf(f, "nodes %u\n", nodes);
    for (unsigned a = 0; a < nodes; a++) {
        fprintf(f, "dist %u", a);
        for (unsigned b = 0; b < nodes; b++)
            fprintf(f, " %d", a == b ? 10 : a / 2 == b / 2 ? 20 : 30);
        fputc('\n', f);
    }
    fprintf(f, PARAMS, bandwidth);
    fprintf(f, "threads %u\n", nodes * cpn);
    for (unsigned t = 0; t < nodes * cpn; t++)
        fprintf(f, "thread %u %u\n", t, t);
    fprintf(f, "program\n%s", program);
    fclose(f);
    return buf;
}

/* Runs an input with the policy table fns; returns the JSON output. */
static char *run(const char *input, const struct sim_policy *fns)
{
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    struct sim_input si;
    bool ok = sim_input_read(in, &si);
    fclose(in);
    CHECK(ok, "the input was refused");
    if (!ok)
        return strdup("{}");
    char *buf;
    size_t size;
    FILE *out = open_memstream(&buf, &size);
    CHECK(sim_run(&si, fns, out));
    fclose(out);
    sim_input_free(&si);
    return buf;
}

/* The number after `"key": ` at its first occurrence past `from`. */
static double number_after(const char *json, const char *from, const char *key)
{
    const char *p = strstr(json, from);
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    p = p ? strstr(p, pattern) : NULL;
    return p ? strtod(p + strlen(pattern), NULL) : NAN;
}

/* The sum of the numbers after every `"key": `. */
static double sum_of(const char *json, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    double sum = 0;
    for (const char *p = strstr(json, pattern); p; p = strstr(p + 1, pattern))
        sum += strtod(p + strlen(pattern), NULL);
    return sum;
}

static double run_time(const char *policy, unsigned nodes, unsigned cpn, double bw,
                       const char *program)
{
    char *input = machine_input(policy, nodes, cpn, bw, program);
    char *out = run(input, &sim_policy_shipped);
    double t = number_after(out, "{", "time_s");
    free(input);
    free(out);
    return t;
}

/* A stub of the learnt split: the static split always. */
static bool never_learns(const struct loop_split_obs *o, bool learnt, iter_ull *bounds)
{
    (void)o, (void)learnt, (void)bounds;
    return false;
}

/* A stub of the plan: always the lowest group alone. */
static struct taskloop_plan one_group(const struct mold *m, unsigned G, bool chooses_tasks,
                                      double work_ns, bool forced_full, int home, unsigned *ids)
{
    (void)m, (void)chooses_tasks, (void)work_ns, (void)forced_full, (void)home;
    for (unsigned j = 0; j < G; j++)
        ids[j] = j;
    return (struct taskloop_plan){.cfg = {1, false}, .k = 1, .recorded = true};
}

/* What the range launches' own claims asked and took (counting_claim). */
static struct {
    unsigned long claims;     /* calls */
    unsigned long taken;      /* tasks they returned, in all */
    unsigned long one_task;   /* calls that returned a single task */
    unsigned workers_min;     /* the least `workers` a call was given */
    unsigned workers_max;     /* the most */
} own;

/* The shipped own claim (numa_dist_own_claim), counted in `own`. */
static iter_ull counting_claim(iter_ull left, unsigned workers)
{
    iter_ull take = numa_dist_own_claim(left, workers);
    own.claims++;
    own.taken += take;
    own.one_task += take == 1;
    own.workers_min = workers < own.workers_min ? workers : own.workers_min;
    own.workers_max = workers > own.workers_max ? workers : own.workers_max;
    return take;
}

/* Runs `input` with the shipped policies but own claims counted in `own`. */
static void count_claims(const char *input)
{
    memset(&own, 0, sizeof own);
    own.workers_min = ~0u;
    struct sim_policy counted = sim_policy_shipped;
    counted.own_claim = counting_claim;
    free(run(input, &counted));
}

static const char *const STREAM =
    "repeat 40\n"
    "taskloop triad iters=2000000 ns=0.5 bytes=24 data=static profile=uniform num_tasks=0 "
    "grainsize=0 reuse=0\n"
    "end\n";

int main(void)
{
    /* Determinism: one input, one output, bit for bit, in every policy. */
    const char *policies[] = {"ws",         "llvm",       "numa", "ilan", "thesis",
                              "ilan-na-ws", "ilan-na-rp", "slb"};
    const unsigned npolicies = sizeof policies / sizeof policies[0];
    for (unsigned i = 0; i < npolicies; i++) {
        char *input = machine_input(policies[i], 4, 4, 20, STREAM);
        char *a = run(input, &sim_policy_shipped), *b = run(input, &sim_policy_shipped);
        CHECK(strcmp(a, b) == 0, "%s: two runs differ", policies[i]);
        free(input);
        free(a);
        free(b);
    }

    /* The decisions are the policy table's: a stub plan that always picks
     * one group shows in the configurations the run reports. */
    {
        char *input = machine_input("ilan", 4, 4, 20, STREAM);
        char *shipped = run(input, &sim_policy_shipped);
        struct sim_policy stub = sim_policy_shipped;
        stub.plan_next = one_group;
        char *stubbed = run(input, &stub);
        CHECK(strstr(shipped, "\"config\": \"4 groups") != NULL, "shipped: %.300s", shipped);
        CHECK(strstr(stubbed, "\"config\": \"1 group strict\"") != NULL, "stub: %.300s", stubbed);
        CHECK(strstr(stubbed, "4 groups") == NULL, "the stub decided every run");
        /* ...and one group of four on a bandwidth-bound loop is slower. */
        CHECK(number_after(stubbed, "{", "time_s") > 2 * number_after(shipped, "{", "time_s"));
        free(input);
        free(shipped);
        free(stubbed);
    }

    /* A repeated adaptive loop whose cost grows along its range starts its
     * later runs from the split the shipped loop_split_next learns: fewer
     * steals than from the static split every time, and done sooner; a
     * stub that never learns keeps the static split. */
    {
        const char *prog = "repeat 20\nloop assign iters=200000 ns=100 bytes=0 data=static "
                           "profile=linear schedule=adaptive chunk=0 reuse=0\nend\n";
        char *input = machine_input("ws", 4, 4, 20, prog);
        char *shipped = run(input, &sim_policy_shipped);
        struct sim_policy stub = sim_policy_shipped;
        stub.loop_split_next = never_learns;
        char *stubbed = run(input, &stub);
        double t_learnt = number_after(shipped, "{", "time_s");
        double t_static = number_after(stubbed, "{", "time_s");
        double s_learnt = sum_of(shipped, "steals"), s_static = sum_of(stubbed, "steals");
        CHECK(t_learnt < t_static, "learnt %g s, static %g s", t_learnt, t_static);
        CHECK(s_learnt < s_static / 2, "learnt %g steals, static %g", s_learnt, s_static);
        free(input);
        free(shipped);
        free(stubbed);
    }

    /* A balanced compute-only static loop on P cores takes the work over P
     * plus its barrier: 16 threads, 4 levels of 300 ns. */
    {
        const char *prog = "loop work iters=1600000 ns=2 bytes=0 data=static profile=uniform "
                           "schedule=static chunk=0 reuse=0\n";
        double want = 1600000 * 2.0 / 16 + 4 * 300.0;
        for (unsigned i = 0; i < npolicies; i++) {
            double t = run_time(policies[i], 4, 4, 20, prog) * 1e9;
            CHECK(fabs(t - want) < 1e-6 * want, "%s: %g ns, want %g", policies[i], t, want);
        }
    }

    /* Doubling every node's bandwidth never slows a bandwidth-bound
     * workload, in any policy, for taskloops and loops alike. */
    {
        const char *progs[] = {
            STREAM,
            "repeat 10\nloop copy iters=1000000 ns=0.2 bytes=16 data=twisted profile=uniform "
            "schedule=adaptive chunk=0 reuse=0\nend\n",
            "repeat 10\nloop copy iters=1000000 ns=0.2 bytes=16 data=interleave profile=uniform "
            "schedule=dynamic chunk=1000 reuse=0\nend\n",
        };
        for (unsigned pr = 0; pr < 3; pr++)
            for (unsigned i = 0; i < npolicies; i++) {
                double slow = run_time(policies[i], 4, 4, 10, progs[pr]);
                double fast = run_time(policies[i], 4, 4, 20, progs[pr]);
                CHECK(fast <= slow, "%s, program %u: %g s with twice the bandwidth, %g without",
                      policies[i], pr, fast, slow);
                /* With its data local, numa's STREAM is bound by the nodes'
                 * bandwidth (4 cores x 7.1 GB/s each exceed a node's 10 or
                 * 20): twice the bandwidth is nearly twice as fast. Random
                 * stealing reads remotely, where each core's latency binds. */
                if (pr == 0 && !strcmp(policies[i], "numa"))
                    CHECK(fast < 0.6 * slow, "numa: %g s against %g", fast, slow);
            }
    }

    /* On one node, numa and ws tie up to what their overheads differ by:
     * per task, a creation and a steal against a start; per run, the
     * wake-ups down the tree and the launch. */
    {
        const char *prog = "repeat 20\ntaskloop t iters=160000 ns=10 bytes=8 data=static "
                           "profile=uniform num_tasks=64 grainsize=0 reuse=0\nend\n";
        double ws = run_time("ws", 1, 8, 20, prog), numa = run_time("numa", 1, 8, 20, prog);
        double per_run = 64 * (100 + 300 + 50) / 8.0 + 4 * 2000 + 200;
        CHECK(fabs(ws - numa) * 1e9 <= 20 * per_run, "ws %g s, numa %g s", ws, numa);
    }
    /* Interference: a taskloop whose iterations update one shared line
     * (atomic_ns) runs faster on fewer groups; ilan's exploration finds
     * one group and settles there, numa keeps all four and is slower. An
     * early cut-off that took threads finishing in waves for a slow run
     * once opened the 2-group run and hid this (mold_projects_past). */
    {
        const char *prog = "repeat 30\ntaskloop c iters=1048576 ns=3 bytes=0 data=static "
                           "profile=uniform num_tasks=0 grainsize=0 reuse=0 atomic_ns=2\nend\n";
        char *input = machine_input("ilan", 4, 4, 20, prog);
        char *out = run(input, &sim_policy_shipped);
        CHECK(strstr(out, "\"config\": \"1 group strict\"") != NULL, "ilan: %.400s", out);
        double ilan = number_after(out, "{", "time_s"), numa = run_time("numa", 4, 4, 20, prog);
        CHECK(ilan < 0.7 * numa, "ilan %g s, numa %g s", ilan, numa);
        free(input);
        free(out);
    }

    /* Task trees: every node runs once, in every policy, on 1 and 16
     * threads. fib(25) makes 2 fib(26) - 1 = 242,785 tasks; uts (no
     * closed form) the same count in every policy; and a sort of 4^5
     * leaves of 1,024 elements runs its 1,024 leaves, its 341 inner nodes,
     * and a merge tree per inner node, split in halves down to 1,024
     * elements: 2 s / 1,024 - 1 nodes for s elements, 9,899 in all. */
    {
        const char *fib = "tree f shape=fib n=25 ns=30 bytes=0 data=interleave cutoff=0 q=0 m=0 "
                          "seed=0\n";
        const char *sort = "tree s shape=sort n=1048576 ns=2 bytes=8 data=static cutoff=1024 "
                           "q=0 m=0 seed=0\n";
        const char *uts = "tree u shape=uts n=200 ns=100 bytes=0 data=interleave cutoff=0 "
                          "q=0.12 m=8 seed=3\n";
        double uts_tasks = -1;
        for (unsigned cpn = 1; cpn <= 4; cpn += 3)
            for (unsigned i = 0; i < npolicies; i++) {
                const char *progs[3] = {fib, sort, uts};
                double tasks[3];
                for (unsigned k = 0; k < 3; k++) {
                    char *input = machine_input(policies[i], cpn == 1 ? 1 : 4, cpn, 20, progs[k]);
                    char *out = run(input, &sim_policy_shipped);
                    tasks[k] = 0;
                    for (const char *p = strstr(out, "\"threads\""); p && (p = strstr(p, "\"tasks\": "));
                         p++)
                        tasks[k] += strtod(p + 9, NULL);
                    free(input);
                    free(out);
                }
                CHECK(tasks[0] == 242785, "%s, %u cores per node: fib ran %g tasks", policies[i], cpn,
                      tasks[0]);
                CHECK(tasks[1] == 1024 + 341 + 2047 + 4 * 511 + 16 * 127 + 64 * 31 + 256 * 7,
                      "%s: sort ran %g pieces", policies[i], tasks[1]);
                if (uts_tasks < 0)
                    uts_tasks = tasks[2];
                CHECK(tasks[2] == uts_tasks && uts_tasks > 200, "%s: uts ran %g tasks, first %g",
                      policies[i], tasks[2], uts_tasks);
            }
    }
    /* slb, XQueue's dispatch: a thread runs exactly the tasks dispatched
     * into its queues and those it made into a full queue (none is taken
     * from another thread's queue, and nothing is stolen), and the round
     * robin spreads each producer's tasks evenly: each thread gets
     * floor or ceil of a producer's count over T from it, so with queues
     * that never fill, two threads' task counts differ by at most T (one
     * per producer). fib(20) on 4 threads: 21,891 tasks. With queues of
     * one task most tasks run at once, and still no thread takes
     * another's. */
    {
        const char *fib = "tree f shape=fib n=20 ns=30 bytes=0 data=interleave cutoff=0 q=0 m=0 "
                          "seed=0\n";
        const unsigned queues[] = {1, 1000000};
        for (unsigned qi = 0; qi < 2; qi++) {
            unsigned queue = queues[qi];
            char *input = machine_input("slb", 2, 2, 20, fib);
            char line[32];
            snprintf(line, sizeof line, "timeline 0\nslb %u\n", queue);
            char *at = strstr(input, "timeline 0\n");
            char *with = malloc(strlen(input) + sizeof line);
            sprintf(with, "%.*s%s%s", (int)(at - input), input, line, at + strlen("timeline 0\n"));
            char *out = run(with, &sim_policy_shipped);
            double lo = INFINITY, hi = 0, total = 0, at_once = 0;
            for (unsigned t = 0; t < 4; t++) {
                char from[32];
                snprintf(from, sizeof from, "{\"thread\": %u,", t);
                double tasks = number_after(out, from, "tasks");
                double queued = number_after(out, from, "queued_in");
                double once = number_after(out, from, "run_at_once");
                CHECK(tasks == queued + once, "queue %u, thread %u: ran %g tasks, %g queued to it, "
                      "%g made into a full queue", queue, t, tasks, queued, once);
                CHECK(number_after(out, from, "steals") == 0, "queue %u, thread %u stole", queue, t);
                lo = fmin(lo, tasks);
                hi = fmax(hi, tasks);
                total += tasks;
                at_once += once;
            }
            CHECK(total == 21891, "queue %u: %g tasks", queue, total);
            if (queue > 1) {
                CHECK(at_once == 0, "queue %u: %g run at once", queue, at_once);
                CHECK(hi - lo <= 4, "round robin: %g to %g tasks a thread", lo, hi);
            } else {
                CHECK(at_once > total / 2, "queues of one: %g of %g run at once", at_once, total);
            }
            free(out);
            free(with);
            free(input);
        }
        /* An slb line: a queue of at least one task. */
        struct sim_input si;
        char *bad = machine_input("slb", 1, 2, 20, fib);
        char *at = strstr(bad, "timeline 0\n");
        char *zero = malloc(strlen(bad) + 16);
        sprintf(zero, "%.*stimeline 0\nslb 0\n%s", (int)(at - bad), bad, at + strlen("timeline 0\n"));
        FILE *f = fmemopen(zero, strlen(zero), "r");
        CHECK(!sim_input_read(f, &si), "slb 0 was accepted");
        fclose(f);
        free(zero);
        free(bad);
    }

    /* A range's own runners claim a batch (numa_dist_own_claim, through
     * the table), as the runtime's claim_front does, not one task per
     * claim: 10 runs of 256 tasks on two nodes (two groups of 4 threads,
     * 128 tasks each, all strict) take far fewer claims than tasks, the
     * first of each range a share of 128 / 8 = 16; `workers` is the
     * range's runners, its group's 4 threads. With 4 tasks, 2 per range,
     * each range has 2 runners (min(tasks, threads), as src/ilan/exec.c
     * counts them), and with a thread per group (an unbound team) 1: what
     * a claim then takes is the function's to say, not checked here. */
    {
        const char *prog = "repeat 10\ntaskloop b iters=25600 ns=100 bytes=0 data=static "
                           "profile=uniform num_tasks=256 grainsize=0 reuse=0\nend\n";
        char *bound = machine_input("numa", 2, 4, 20, prog);
        count_claims(bound);
        CHECK(own.taken == 10 * 256, "the claims took %lu tasks, want %u", own.taken, 10 * 256);
        CHECK(own.claims > 0 && own.claims * 3 < own.taken, "%lu claims for %lu tasks",
              own.claims, own.taken);
        CHECK(own.one_task < own.claims, "%lu of %lu claims took one task", own.one_task,
              own.claims);
        CHECK(own.workers_min == 4 && own.workers_max == 4, "workers %u..%u, want 4",
              own.workers_min, own.workers_max);
        char *few = machine_input("numa", 2, 4, 20,
                                  "repeat 3\ntaskloop p iters=400 ns=100 bytes=0 data=static "
                                  "profile=uniform num_tasks=4 grainsize=0 reuse=0\nend\n");
        count_claims(few);
        CHECK(own.taken == 3 * 4 && own.workers_min == 2 && own.workers_max == 2,
              "2 tasks a range on 4 threads: %lu taken, workers %u..%u, want 12 and 2", own.taken,
              own.workers_min, own.workers_max);
        char *input;
        const char *at = strstr(bound, "program\n");
        if (asprintf(&input, "%.*sunbound 1\n%s", (int)(at - bound), bound, at) < 0)
            abort();
        count_claims(input);
        CHECK(own.taken > 0 && own.workers_min == 1 && own.workers_max == 1,
              "unbound: %lu claims of %lu tasks, workers %u..%u, want 1", own.claims, own.taken,
              own.workers_min, own.workers_max);
        free(bound);
        free(few);
        free(input);
    }

    /* The optional lines: uneven core speed (two optional parameters) and
     * an unbound team. Uneven cores change the times, from the seed; an
     * unbound team lets numa's threads take each other's tasks (none is
     * strict), which evens out a loop whose cost rises along its range;
     * 'unbound' takes 0 or 1 only (the refusal prints one line). */
    {
        const char *prog = "repeat 10\ntaskloop r iters=6400 ns=1000 bytes=0 data=static "
                           "profile=linear num_tasks=0 grainsize=0 reuse=0\nend\n";
        char *plain = machine_input("numa", 1, 2, 20, prog);
        const char *at = strstr(plain, "threads ");
        const char *extras[] = {"param speed_spread 0.2\nparam speed_interval_us 500\n", "",
                                "unbound 1\n", "unbound 2\n"};
        double time[4] = {0};
        for (unsigned k = 0; k < 4; k++) {
            /* the extra lines go before 'threads' (parameters) or 'program' */
            const char *where = k == 0 ? at : strstr(plain, "program\n");
            char *input;
            if (asprintf(&input, "%.*s%s%s", (int)(where - plain), plain, extras[k], where) < 0)
                abort();
            FILE *in = fmemopen(input, strlen(input), "r");
            struct sim_input si;
            bool ok = sim_input_read(in, &si); /* k = 3: its one line on stderr */
            fclose(in);
            if (k == 3) {
                CHECK(!ok, "'unbound 2' was accepted");
            } else {
                CHECK(ok, "extra lines %u refused", k);
                char *out = run(input, &sim_policy_shipped);
                time[k] = number_after(out, "{", "time_s");
                free(out);
                sim_input_free(&si);
            }
            free(input);
        }
        CHECK(time[0] != time[1], "uneven cores left the time unchanged: %g s", time[0]);
        CHECK(time[2] < time[1], "unbound %g s, bound %g s", time[2], time[1]);
        free(plain);
    }

    /* Ablations of ILAN's parts: the names the engine takes, and that an
     * identity per size is what keeps a taskloop whose size alternates
     * (an MG-like V-cycle: a bandwidth-bound level and a 64-iteration
     * one) from running its large level on the configuration the small
     * one chose, under the thesis's exploration. */
    {
        static const struct {
            const char *name;   /* the policy */
            bool ok;            /* accepted */
            unsigned additions; /* then: its parts of mold.h */
            bool per_size;      /* and its identity per size */
        } names[] = {
            {"ilan", true, MOLD_ADD_ALL, true},
            {"thesis", true, 0, false},
            {"thesis+size", true, 0, true},
            {"thesis+size+drift", true, MOLD_ADD_DRIFT, true},
            {"thesis+resample+guards", true, MOLD_ADD_RESAMPLE | MOLD_ADD_GUARDS, false},
            {"ilan-size", true, MOLD_ADD_ALL, false},
            {"ilan-drift-resample", true, MOLD_ADD_GUARDS, true},
            {"ilan-na-ws", true, MOLD_ADD_ALL, true},
            {"slb", true, MOLD_ADD_ALL, true},
            {"slb-size", false, 0, false},
            {"thesis-size", false, 0, false},
            {"ilan+size", false, 0, false},
            {"thesis+size+size", false, 0, false},
            {"ilan-na-ws-drift", false, 0, false},
            {"numa-size", false, 0, false},
            {"thesis+", false, 0, false},
            {"ilan-sizes", false, 0, false},
        };
        for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
            struct sim_input si;
            memset(&si, 0, sizeof si);
            bool ok = sim_policy_parse(names[i].name, &si);
            CHECK(ok == names[i].ok, "%s: %s", names[i].name, ok ? "accepted" : "refused");
            if (ok && names[i].ok)
                CHECK(si.mold_additions == names[i].additions && si.per_size == names[i].per_size &&
                          !strcmp(si.policy, names[i].name),
                      "%s: additions %u, per size %d", names[i].name, si.mold_additions,
                      si.per_size);
        }
        const char *vcycle = "repeat 30\n"
                             "taskloop resid iters=4000000,64 ns=0.5 bytes=24 data=static "
                             "profile=uniform num_tasks=0 grainsize=0 reuse=0\n"
                             "end\n";
        double thesis = run_time("thesis", 4, 4, 20, vcycle),
               sized = run_time("thesis+size", 4, 4, 20, vcycle),
               ilan = run_time("ilan", 4, 4, 20, vcycle),
               unsized = run_time("ilan-size", 4, 4, 20, vcycle);
        CHECK(sized < thesis, "thesis %g s, with an identity per size %g s", thesis, sized);
        /* ilan's guards cope with this toy either way; the identities still
         * change what it runs. */
        CHECK(ilan != unsized, "ilan %g s, without an identity per size the same", ilan);
    }
    return unit_report();
}
