/* input.c — reads the simulator engine's text input (sim/README.md) into a struct sim_input, with a one-line error naming the line. */
#include "input.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/tunables.h"
#include "sched/mold.h"

#define MAX_TOKENS 64

const char *const SCHEDULE_NAMES[SIM_SCHEDULES] = {
    "static", "dynamic", "guided", "adaptive", "static_steal", "fac2", "tss", "af",
};

/* The parser's state: the line being read, for messages. */
struct reader {
    FILE *f;         /* the input */
    unsigned line;   /* current line number, 1-based */
    char buf[65536]; /* current line */
    char *tok[MAX_TOKENS]; /* its tokens */
    unsigned ntok;   /* how many */
};

static bool fail(const struct reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ilan-sim-engine: line %u: ", r->line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

/* The next line with a token, split (comments dropped); false at the end. */
static bool next_line(struct reader *r)
{
    while (fgets(r->buf, sizeof r->buf, r->f)) {
        r->line++;
        char *hash = strchr(r->buf, '#');
        if (hash)
            *hash = '\0';
        r->ntok = 0;
        for (char *save = NULL, *t = strtok_r(r->buf, " \t\r\n", &save); t && r->ntok < MAX_TOKENS;
             t = strtok_r(NULL, " \t\r\n", &save))
            r->tok[r->ntok++] = t;
        if (r->ntok)
            return true;
    }
    return false;
}

static bool parse_ulong(const char *s, unsigned long *out)
{
    char *end;
    if (!*s || *s == '-')
        return false;
    *out = strtoul(s, &end, 10);
    return *end == '\0';
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return *s && *end == '\0';
}

/* Reads a line "<key> <unsigned>" into *out. */
static bool expect_count(struct reader *r, const char *key, unsigned long *out)
{
    if (!next_line(r))
        return fail(r, "input ends where '%s' was expected", key);
    if (strcmp(r->tok[0], key) != 0 || r->ntok != 2 || !parse_ulong(r->tok[1], out))
        return fail(r, "expected '%s <count>'", key);
    return true;
}

/* The parameters by name, with their place in struct sim_params. */
static const struct {
    const char *name; /* as in the input */
    size_t offset;    /* in struct sim_params */
    bool optional;    /* may be absent (then 0) */
} PARAMS[] = {
#define P(n) {#n, offsetof(struct sim_params, n), false}
#define OPT(n) {#n, offsetof(struct sim_params, n), true}
    P(compute_scale), P(node_bandwidth_gbs), P(local_latency_ns), P(lines_in_flight),
    P(llc_mb), P(llc_bandwidth_gbs), P(task_create_ns), P(task_start_ns), P(claim_ns),
    P(steal_ns), P(steal_fail_ns), P(wake_ns), P(barrier_ns), P(launch_ns), P(pop_ns),
    OPT(speed_spread), OPT(speed_interval_us),
#undef P
#undef OPT
};
#define NPARAMS (sizeof PARAMS / sizeof PARAMS[0])

/* The index of construct `name` of kind k, added when new. */
static bool construct_index(struct reader *r, struct sim_input *in, const char *name,
                            enum sim_op_kind k, unsigned *out)
{
    for (unsigned i = 0; i < in->nconstructs; i++)
        if (strcmp(in->names[i], name) == 0) {
            if (in->kinds[i] != k)
                return fail(r, "'%s' names two kinds of construct", name);
            *out = i;
            return true;
        }
    in->names = realloc(in->names, (in->nconstructs + 1) * sizeof *in->names);
    in->kinds = realloc(in->kinds, (in->nconstructs + 1) * sizeof *in->kinds);
    if (!in->names || !in->kinds)
        return fail(r, "out of memory");
    in->names[in->nconstructs] = strdup(name);
    in->kinds[in->nconstructs] = k;
    *out = in->nconstructs++;
    return true;
}

/* The index of `val` in names[0..n) (NULL entries match nothing), or -1. */
static int name_index(const char *val, const char *const *names, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (names[i] && !strcmp(val, names[i]))
            return (int)i;
    return -1;
}

/* key=value options of a taskloop or loop line into op. */
static bool parse_options(struct reader *r, const struct sim_input *in, struct sim_op *op)
{
    static const char *const needed_taskloop[] = {"iters", "ns", "bytes", "data", "profile",
                                                  "num_tasks", "grainsize", "reuse"};
    static const char *const needed_loop[] = {"iters", "ns", "bytes", "data", "profile",
                                              "schedule", "chunk", "reuse"};
    static const char *const needed_tree[] = {"shape", "n", "ns", "bytes", "data",
                                              "cutoff", "q", "m", "seed"};
    const char *const *needed = op->kind == OP_TASKLOOP ? needed_taskloop
                                : op->kind == OP_LOOP   ? needed_loop
                                                        : needed_tree;
    unsigned nneeded = op->kind == OP_TREE ? 9 : 8;
    bool seen[9] = {false};
    for (unsigned t = 2; t < r->ntok; t++) {
        char *eq = strchr(r->tok[t], '=');
        if (!eq)
            return fail(r, "'%s' is not key=value", r->tok[t]);
        *eq = '\0';
        const char *key = r->tok[t], *val = eq + 1;
        unsigned which = nneeded;
        for (unsigned i = 0; i < nneeded; i++)
            if (strcmp(key, needed[i]) == 0)
                which = i;
        unsigned long u;
        bool ok = true;
        if (op->kind != OP_TREE && !strcmp(key, "atomic_ns")) { /* optional */
            if (!parse_double(val, &op->atomic_ns) || op->atomic_ns < 0)
                return fail(r, "bad value '%s' for atomic_ns", val);
            continue;
        }
        if (which == nneeded)
            return fail(r, "unknown option '%s'", key);
        seen[which] = true;
        if (!strcmp(key, "iters")) {
            op->niters = 0;
            for (const char *p = val; *p;) {
                char *end;
                u = strtoul(p, &end, 10);
                if (end == p || u == 0 || (*end && *end != ','))
                    return fail(r, "iters: '%s' is not a list of positive counts", val);
                op->iters = realloc(op->iters, (op->niters + 1) * sizeof *op->iters);
                op->iters[op->niters++] = u;
                p = *end ? end + 1 : end;
            }
            ok = op->niters > 0;
        } else if (!strcmp(key, "ns")) {
            ok = parse_double(val, &op->ns) && op->ns >= 0;
        } else if (!strcmp(key, "bytes")) {
            ok = parse_double(val, &op->bytes) && op->bytes >= 0;
        } else if (!strcmp(key, "data")) {
            static const char *const names[] = {[DATA_STATIC] = "static", [DATA_TWISTED] = "twisted",
                                                [DATA_INTERLEAVE] = "interleave",
                                                [DATA_SINGLE] = "single"};
            int i = name_index(val, names, sizeof names / sizeof names[0]);
            if (i >= 0) {
                op->data = (enum sim_data)i;
            } else if (!strncmp(val, "node:", 5) && parse_ulong(val + 5, &u) && u < in->nnodes) {
                op->data = DATA_NODE;
                op->data_node = (int)u;
            } else {
                ok = false;
            }
        } else if (!strcmp(key, "profile")) {
            static const char *const names[] = {[PROFILE_UNIFORM] = "uniform",
                                                [PROFILE_LINEAR] = "linear"};
            int i = name_index(val, names, sizeof names / sizeof names[0]);
            if (i >= 0)
                op->profile = (enum sim_profile)i;
            else if (sscanf(val, "peak:%lf:%lf", &op->peak_width, &op->peak_height) == 2 &&
                     op->peak_width > 0 && op->peak_width <= 1 && op->peak_height > 0)
                op->profile = PROFILE_PEAK;
            else
                ok = false;
        } else if (!strcmp(key, "shape")) {
            static const char *const names[] = {[SHAPE_FIB] = "fib", [SHAPE_SORT] = "sort",
                                                [SHAPE_UTS] = "uts"};
            int i = name_index(val, names, sizeof names / sizeof names[0]);
            op->shape = (enum sim_shape)(i < 0 ? 0 : i);
            ok = i >= 0;
        } else if (!strcmp(key, "n")) {
            ok = parse_ulong(val, &u) && u > 0;
            op->iters = malloc(sizeof *op->iters);
            op->iters[0] = u;
            op->niters = 1;
        } else if (!strcmp(key, "cutoff")) {
            ok = parse_ulong(val, &op->cutoff);
        } else if (!strcmp(key, "m")) {
            ok = parse_ulong(val, &op->m);
        } else if (!strcmp(key, "q")) {
            ok = parse_double(val, &op->q) && op->q >= 0 && op->q <= 1;
        } else if (!strcmp(key, "seed")) {
            ok = parse_ulong(val, &op->tree_seed);
        } else if (!strcmp(key, "num_tasks")) {
            ok = parse_ulong(val, &op->num_tasks);
        } else if (!strcmp(key, "grainsize")) {
            ok = parse_ulong(val, &op->grainsize);
        } else if (!strcmp(key, "chunk")) {
            ok = parse_ulong(val, &op->chunk);
        } else if (!strcmp(key, "reuse")) {
            ok = parse_ulong(val, &u) && u <= 1;
            op->reuse = u == 1;
        } else if (!strcmp(key, "schedule")) {
            int i = name_index(val, SCHEDULE_NAMES, SIM_SCHEDULES);
            op->schedule = (enum sim_schedule)(i < 0 ? 0 : i);
            ok = i >= 0;
        }
        if (!ok)
            return fail(r, "bad value '%s' for %s", val, key);
    }
    for (unsigned i = 0; i < nneeded; i++)
        if (!seen[i])
            return fail(r, "missing option %s=", needed[i]);
    if (op->kind == OP_TREE && op->shape == SHAPE_FIB && op->iters[0] > 60)
        return fail(r, "fib(%lu): more tasks than a run can hold (n <= 60)", op->iters[0]);
    if (op->kind == OP_TREE && op->shape == SHAPE_SORT && op->cutoff == 0)
        return fail(r, "a sort tree needs cutoff= (its leaves' size) above 0");
    if (op->num_tasks && op->grainsize)
        return fail(r, "num_tasks and grainsize together");
    return true;
}

/* The program: every line after `program`. */
static bool read_program(struct reader *r, struct sim_input *in)
{
    unsigned open[64], depth = 0, cap = 0;
    while (next_line(r)) {
        if (in->nops == cap) {
            cap = cap ? 2 * cap : 64;
            in->ops = realloc(in->ops, cap * sizeof *in->ops);
            if (!in->ops)
                return fail(r, "out of memory");
        }
        struct sim_op *op = &in->ops[in->nops];
        memset(op, 0, sizeof *op);
        const char *what = r->tok[0];
        if (!strcmp(what, "taskloop") || !strcmp(what, "loop") || !strcmp(what, "tree")) {
            op->kind = !strcmp(what, "taskloop") ? OP_TASKLOOP
                       : !strcmp(what, "loop")   ? OP_LOOP
                                                 : OP_TREE;
            if (r->ntok < 2)
                return fail(r, "%s needs a name", what);
            if (!construct_index(r, in, r->tok[1], op->kind, &op->construct) ||
                !parse_options(r, in, op))
                return false;
        } else if (!strcmp(what, "barrier") && r->ntok == 1) {
            op->kind = OP_BARRIER;
        } else if (!strcmp(what, "repeat") && r->ntok == 2 && parse_ulong(r->tok[1], &op->count)) {
            if (depth == 64)
                return fail(r, "repeats nested more than 64 deep");
            op->kind = OP_REPEAT;
            open[depth++] = in->nops;
        } else if (!strcmp(what, "end") && r->ntok == 1) {
            if (!depth)
                return fail(r, "'end' without a repeat");
            op->kind = OP_END;
            in->ops[open[--depth]].end = in->nops;
        } else {
            return fail(r, "unknown program item '%s'", what);
        }
        in->nops++;
    }
    if (depth)
        return fail(r, "a repeat is not closed by 'end'");
    return true;
}

/* The parts of ILAN an ablation names: what `thesis+X` adds and `ilan-X`
 * leaves out. */
static const struct {
    const char *name;  /* after + or - */
    unsigned addition; /* enum mold_addition; 0 for size */
} ABLATION_PARTS[] = {{"size", 0},
                      {"resample", MOLD_ADD_RESAMPLE},
                      {"drift", MOLD_ADD_DRIFT},
                      {"guards", MOLD_ADD_GUARDS}};

bool sim_policy_parse(const char *name, struct sim_input *in)
{
    static const struct {
        const char *name;          /* as in the input */
        enum sim_policy_kind kind; /* the runtime */
        enum dlb_strategy dlb;     /* its load balancing */
        bool slb;                  /* trees: XQueue's round-robin dispatch, no stealing */
    } POLICIES[] = {{"ws", POL_WS, DLB_WS, false},
                    {"llvm", POL_LLVM, DLB_WS, false},
                    {"numa", POL_NUMA, DLB_WS, false},
                    {"ilan", POL_ILAN, DLB_WS, false},
                    {"thesis", POL_THESIS, DLB_WS, false},
                    {"ilan-na-ws", POL_ILAN, DLB_NA_WS, false},
                    {"ilan-na-rp", POL_ILAN, DLB_NA_RP, false},
                    /* SLB concerns tasks: taskloops and loops run as llvm's */
                    {"slb", POL_LLVM, DLB_WS, true}};
    if (strlen(name) >= sizeof in->policy)
        return false;
    unsigned npol = sizeof POLICIES / sizeof POLICIES[0], pi = 0;
    size_t base = 0;
    /* The longest name the input begins with (ilan-na-ws before ilan). */
    for (unsigned i = 0; i < npol; i++) {
        size_t len = strlen(POLICIES[i].name);
        if (len > base && !strncmp(name, POLICIES[i].name, len)) {
            pi = i;
            base = len;
        }
    }
    if (!base)
        return false;
    bool thesis = POLICIES[pi].kind == POL_THESIS;
    in->kind = POLICIES[pi].kind;
    in->slb = POLICIES[pi].slb;
    in->slb_queue = SIM_SLB_QUEUE_DEFAULT;
    in->mold_additions = thesis ? 0 : MOLD_ADD_ALL;
    in->per_size = !thesis;
    /* An ablation: thesis+X... or ilan-X..., each part once. */
    char sign = thesis ? '+' : '-';
    bool ablatable = thesis || (in->kind == POL_ILAN && POLICIES[pi].dlb == DLB_WS);
    if (name[base] && !ablatable)
        return false;
    unsigned seen = 0;
    for (const char *at = name + base; *at;) {
        if (*at++ != sign)
            return false;
        size_t len = strcspn(at, "+-");
        unsigned part = 0, nparts = sizeof ABLATION_PARTS / sizeof ABLATION_PARTS[0];
        while (part < nparts && (strlen(ABLATION_PARTS[part].name) != len ||
                                 strncmp(at, ABLATION_PARTS[part].name, len)))
            part++;
        if (part == nparts || seen & 1u << part)
            return false;
        seen |= 1u << part;
        unsigned add = ABLATION_PARTS[part].addition;
        if (add)
            in->mold_additions = thesis ? in->mold_additions | add : in->mold_additions & ~add;
        else
            in->per_size = thesis;
        at += len;
    }
    snprintf(in->policy, sizeof in->policy, "%s", name);
    in->dlb = (struct dlb_params){POLICIES[pi].dlb, ILAN_DLB_VICTIMS_DEFAULT, ILAN_DLB_STEAL_DEFAULT,
                                  ILAN_DLB_INTERVAL_DEFAULT, ILAN_DLB_PLOCAL_DEFAULT};
    return true;
}

bool sim_input_read(FILE *f, struct sim_input *in)
{
    static struct reader r; /* its line buffer is large */
    memset(&r, 0, sizeof r);
    r.f = f;
    memset(in, 0, sizeof *in);
    unsigned long u;
    if (!next_line(&r) || r.ntok != 2 || strcmp(r.tok[0], "ilan-sim") || strcmp(r.tok[1], "1"))
        return fail(&r, "the input must begin with 'ilan-sim 1'");
    if (!next_line(&r) || r.ntok != 2 || strcmp(r.tok[0], "seed") ||
        !parse_ulong(r.tok[1], &u))
        return fail(&r, "expected 'seed <number>'");
    in->seed = u;
    if (!next_line(&r) || r.ntok != 2 || strcmp(r.tok[0], "policy"))
        return fail(&r, "expected 'policy <name>'");
    if (!sim_policy_parse(r.tok[1], in))
        return fail(&r, "unknown policy '%s' (ws, llvm, numa, ilan, thesis, ilan-na-ws, "
                        "ilan-na-rp, slb; thesis+X adds and ilan-X leaves out X of size, resample, "
                        "drift, guards)", r.tok[1]);
    if (!expect_count(&r, "timeline", &u) || u > 1)
        return fail(&r, "expected 'timeline 0' or 'timeline 1'");
    in->timeline = u == 1;

    if (!next_line(&r))
        return fail(&r, "input ends where 'cores' was expected");
    /* optional, in any order: the load balancing's parameters, slb's queue size */
    bool seen_dlb = false, seen_slb = false;
    for (;;) {
        if (!strcmp(r.tok[0], "dlb") && !seen_dlb) {
            unsigned long v[3];
            double plocal;
            if (r.ntok != 5 || !parse_ulong(r.tok[1], &v[0]) || !parse_ulong(r.tok[2], &v[1]) ||
                !parse_ulong(r.tok[3], &v[2]) || !parse_double(r.tok[4], &plocal) || v[0] == 0 ||
                v[1] == 0 || v[2] == 0 || plocal < 0 || plocal > 1)
                return fail(&r, "expected 'dlb <victims> <steal> <interval> <plocal>' (counts >= 1, "
                                "plocal in [0, 1])");
            in->dlb.victims = (unsigned)v[0];
            in->dlb.steal = (unsigned)v[1];
            in->dlb.interval = (unsigned)v[2];
            in->dlb.plocal = plocal;
            seen_dlb = true;
        } else if (!strcmp(r.tok[0], "slb") && !seen_slb) {
            if (r.ntok != 2 || !parse_ulong(r.tok[1], &u) || u == 0)
                return fail(&r, "expected 'slb <queue>' (tasks one queue holds, >= 1)");
            in->slb_queue = u;
            seen_slb = true;
        } else {
            break;
        }
        if (!next_line(&r))
            return fail(&r, "input ends where 'cores' was expected");
    }
    if (strcmp(r.tok[0], "cores") || r.ntok != 2 || !parse_ulong(r.tok[1], &u) || u == 0)
        return fail(&r, "expected 'cores <count>' (at least one)");
    in->ncores = (unsigned)u;
    in->core_node = calloc(u, sizeof *in->core_node);
    in->core_llc = calloc(u, sizeof *in->core_llc);
    in->core_package = calloc(u, sizeof *in->core_package);
    for (unsigned c = 0; c < in->ncores; c++) {
        unsigned long v[4];
        if (!next_line(&r) || r.ntok != 5 || strcmp(r.tok[0], "core"))
            return fail(&r, "expected 'core <c> <node> <llc> <package>'");
        for (int i = 0; i < 4; i++)
            if (!parse_ulong(r.tok[1 + i], &v[i]))
                return fail(&r, "'%s' is not a count", r.tok[1 + i]);
        if (v[0] != c)
            return fail(&r, "cores must come in order: expected core %u", c);
        in->core_node[c] = (int)v[1];
        in->core_llc[c] = (int)v[2];
        in->core_package[c] = (int)v[3];
    }
    if (!expect_count(&r, "nodes", &u) || u == 0)
        return fail(&r, "expected 'nodes <count>' (at least one)");
    in->nnodes = (unsigned)u;
    for (unsigned c = 0; c < in->ncores; c++)
        if ((unsigned)in->core_node[c] >= in->nnodes)
            return fail(&r, "core %u is on node %d, past the %u nodes", c, in->core_node[c],
                        in->nnodes);
    in->dist = calloc((size_t)u * u, sizeof *in->dist);
    for (unsigned a = 0; a < in->nnodes; a++) {
        if (!next_line(&r) || r.ntok != in->nnodes + 2 || strcmp(r.tok[0], "dist") ||
            !parse_ulong(r.tok[1], &u) || u != a)
            return fail(&r, "expected 'dist %u' and %u distances", a, in->nnodes);
        for (unsigned b = 0; b < in->nnodes; b++) {
            if (!parse_ulong(r.tok[2 + b], &u) || u < 10)
                return fail(&r, "distance '%s' is not a number >= 10", r.tok[2 + b]);
            in->dist[a * in->nnodes + b] = (int)u;
        }
    }
    bool have[NPARAMS] = {false};
    for (;;) {
        if (!next_line(&r))
            return fail(&r, "input ends before 'threads'");
        if (strcmp(r.tok[0], "param"))
            break;
        double v;
        unsigned i = 0;
        while (i < NPARAMS && (r.ntok != 3 || strcmp(PARAMS[i].name, r.tok[1])))
            i++;
        if (r.ntok != 3 || i == NPARAMS)
            return fail(&r, "unknown parameter '%s'", r.ntok > 1 ? r.tok[1] : "");
        if (!parse_double(r.tok[2], &v) || v < 0)
            return fail(&r, "parameter %s: '%s' is not a number >= 0", r.tok[1], r.tok[2]);
        *(double *)((char *)&in->params + PARAMS[i].offset) = v;
        have[i] = true;
    }
    for (unsigned i = 0; i < NPARAMS; i++)
        if (!have[i] && !PARAMS[i].optional)
            return fail(&r, "parameter %s is missing", PARAMS[i].name);
    if (in->params.node_bandwidth_gbs <= 0 || in->params.local_latency_ns <= 0 ||
        in->params.lines_in_flight <= 0 || in->params.llc_bandwidth_gbs <= 0)
        return fail(&r, "bandwidths, latency and lines in flight must be above 0");
    if (strcmp(r.tok[0], "threads") || r.ntok != 2 || !parse_ulong(r.tok[1], &u) || u == 0)
        return fail(&r, "expected 'threads <count>' (at least one)");
    if (u > in->ncores)
        return fail(&r, "%lu threads on %u cores: oversubscription is not modelled", u,
                    in->ncores);
    in->nthreads = (unsigned)u;
    in->thread_core = calloc(u, sizeof *in->thread_core);
    for (unsigned t = 0; t < in->nthreads; t++) {
        if (!next_line(&r) || r.ntok != 3 || strcmp(r.tok[0], "thread") ||
            !parse_ulong(r.tok[1], &u) || u != t || !parse_ulong(r.tok[2], &u) ||
            u >= in->ncores)
            return fail(&r, "expected 'thread %u <core>' with a core below %u", t, in->ncores);
        for (unsigned o = 0; o < t; o++)
            if (in->thread_core[o] == (int)u)
                return fail(&r, "threads %u and %u on core %lu: one thread per core", o, t, u);
        in->thread_core[t] = (int)u;
    }
    if (!next_line(&r))
        return fail(&r, "expected 'program'");
    if (!strcmp(r.tok[0], "unbound")) {
        if (r.ntok != 2 || !parse_ulong(r.tok[1], &u) || u > 1)
            return fail(&r, "expected 'unbound <0|1>'");
        in->unbound = u == 1;
        if (!next_line(&r))
            return fail(&r, "expected 'program'");
    }
    if (r.ntok != 1 || strcmp(r.tok[0], "program"))
        return fail(&r, "expected 'program'");
    return read_program(&r, in);
}

void sim_input_free(struct sim_input *in)
{
    for (unsigned i = 0; i < in->nops; i++)
        free(in->ops[i].iters);
    for (unsigned i = 0; i < in->nconstructs; i++)
        free(in->names[i]);
    free(in->ops);
    free(in->names);
    free(in->kinds);
    free(in->core_node);
    free(in->core_llc);
    free(in->core_package);
    free(in->dist);
    free(in->thread_core);
    memset(in, 0, sizeof *in);
}
