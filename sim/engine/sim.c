/* sim.c — one simulated run: walks the program (repeats, taskloops, loops, barriers) on the world and writes what it measured as JSON. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "taskloop.h"
#include "tree.h"

/* Counts one execution of configuration `config` for construct r,
 * which took time_ns (the first ones are listed one by one). */
static void count_config(struct sim_construct_result *r, const char *config, double time_ns)
{
    snprintf(r->config, sizeof r->config, "%s", config);
    unsigned i = 0;
    while (i < r->nconfigs && strcmp(r->configs[i], config))
        i++;
    if (r->executions < SIM_FIRST_RUNS) {
        r->first[r->executions] = (unsigned short)i;
        r->first_ns[r->executions] = time_ns;
    }
    if (i < r->nconfigs) {
        r->config_runs[i]++;
        return;
    }
    r->configs = realloc(r->configs, (r->nconfigs + 1) * sizeof *r->configs);
    r->config_runs = realloc(r->config_runs, (r->nconfigs + 1) * sizeof *r->config_runs);
    if (!r->configs || !r->config_runs) {
        fprintf(stderr, "ilan-sim-engine: out of memory\n");
        exit(1);
    }
    snprintf(r->configs[r->nconfigs], sizeof r->configs[0], "%s", config);
    r->config_runs[r->nconfigs++] = 1;
}

/* s as a JSON string. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void write_result(FILE *f, const struct world *w, const struct sim_construct_result *res,
                         const unsigned *order, unsigned norder, double time_ns)
{
    const struct sim_input *in = w->in;
    fprintf(f, "{\"policy\": ");
    json_string(f, in->policy);
    fprintf(f, ", \"seed\": %llu, \"time_s\": %.9g, \"constructs\": [",
            (unsigned long long)in->seed, time_ns * 1e-9);
    for (unsigned i = 0; i < norder; i++) {
        unsigned c = order[i];
        const struct sim_construct_result *r = &res[c];
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        json_string(f, in->names[c]);
        fprintf(f, ", \"kind\": \"%s\", \"executions\": %lu, \"time_s\": %.9g, \"config\": ",
                in->kinds[c] == OP_TASKLOOP ? "taskloop" : in->kinds[c] == OP_TREE ? "tree" : "loop",
                r->executions,
                r->time_ns * 1e-9);
        json_string(f, r->config);
        fprintf(f, ", \"configs\": {");
        for (unsigned k = 0; k < r->nconfigs; k++) {
            fputs(k ? ", " : "", f);
            json_string(f, r->configs[k]);
            fprintf(f, ": %lu", r->config_runs[k]);
        }
        fprintf(f, "}, \"first\": [");
        for (unsigned long k = 0; k < r->executions && k < SIM_FIRST_RUNS; k++) {
            fprintf(f, "%s[", k ? ", " : "");
            json_string(f, r->configs[r->first[k]]);
            fprintf(f, ", %.9g]", r->first_ns[k] * 1e-9);
        }
        fprintf(f, "], ");
        if (in->kinds[c] == OP_LOOP)
            fprintf(f, "\"chunks\": %lu, ", r->chunks);
        fprintf(f, "\"state\": ");
        json_string(f, r->state);
        fputc('}', f);
    }
    fprintf(f, "], \"threads\": [");
    for (unsigned t = 0; t < w->nthreads; t++) {
        const struct sim_thread *th = &w->threads[t];
        fprintf(f, "%s{\"thread\": %u, \"core\": %u, \"node\": %u, \"busy_s\": %.9g, "
                   "\"tasks\": %lu, \"steals\": %lu, \"steals_remote\": %lu",
                t ? ", " : "", t, th->core, th->node, th->busy_ns * 1e-9, th->pieces, th->steals,
                th->steals_remote);
        /* slb only, so that the other policies' output stays as it was */
        if (in->slb)
            fprintf(f, ", \"queued_in\": %lu, \"run_at_once\": %lu", th->queued_in,
                    th->run_at_once);
        fputc('}', f);
    }
    fputc(']', f);
    if (in->timeline) {
        fprintf(f, ", \"timeline\": [");
        for (unsigned long i = 0; i < w->nspans; i++)
            fprintf(f, "%s[%u, %.9g, %.9g, %u]", i ? ", " : "", w->spans[i].thread,
                    w->spans[i].start * 1e-9, w->spans[i].end * 1e-9, w->spans[i].construct);
        fputc(']', f);
        if (w->spans_truncated)
            fprintf(f, ", \"timeline_truncated\": true");
    }
    fprintf(f, "}\n");
}

bool sim_run(const struct sim_input *in, const struct sim_policy *fns, FILE *out)
{
    struct world w;
    if (!world_init(&w, in)) {
        fprintf(stderr, "ilan-sim-engine: cannot build the machine (out of memory)\n");
        world_free(&w);
        return false;
    }
    unsigned nc = in->nconstructs;
    struct sim_construct_result *res = calloc(nc ? nc : 1, sizeof *res);
    unsigned *order = calloc(nc ? nc : 1, sizeof *order), norder = 0;
    unsigned long stack_at[64], stack_left[64];
    unsigned depth = 0;
    struct tl_history hist = {0};
    double clock = 0;       /* the creator's time (every thread's after a loop or barrier) */
    bool in_single = false; /* taskloops ran since the last barrier: the others wait in it */
    for (unsigned i = 0; i < in->nops; i++) {
        const struct sim_op *op = &in->ops[i];
        switch (op->kind) {
        case OP_REPEAT:
            if (op->count == 0) {
                i = op->end;
                break;
            }
            stack_at[depth] = i;
            stack_left[depth++] = op->count;
            break;
        case OP_END:
            if (--stack_left[depth - 1] > 0)
                i = (unsigned)stack_at[depth - 1];
            else
                depth--;
            break;
        case OP_BARRIER:
            clock += loop_barrier_ns(&w);
            in_single = false;
            break;
        case OP_TASKLOOP:
        case OP_TREE:
        case OP_LOOP: {
            struct sim_construct_result *r = &res[op->construct];
            if (r->executions == 0)
                order[norder++] = op->construct;
            unsigned long n = op->iters[r->executions % op->niters];
            w.current_construct = op->construct;
            double start = clock;
            if (op->kind == OP_TASKLOOP) {
                struct tl_outcome o;
                clock = taskloop_run(&w, fns, &hist, op, n, start, &o);
                count_config(r, o.config, clock - start);
                in_single = true;
                const struct tl_identity *id = taskloop_identity_last(&hist, op->construct);
                if (id)
                    mold_explain(&id->mold, r->state, sizeof r->state);
            } else if (op->kind == OP_TREE) {
                clock = tree_run(&w, fns, op, start);
                count_config(r, in->policy, clock - start);
                in_single = true;
            } else {
                if (in_single) /* the single's barrier first */
                    start += loop_barrier_ns(&w);
                unsigned long chunks = 0;
                clock = loop_run(&w, fns, op, n, start, &chunks);
                r->chunks += chunks;
                count_config(r, SCHEDULE_NAMES[op->schedule], clock - start);
                in_single = false;
            }
            if (op->reuse)
                world_reuse_done(&w, op->construct);
            r->executions++;
            r->time_ns += clock - start;
            break;
        }
        }
    }
    if (in_single)
        clock += loop_barrier_ns(&w);
    write_result(out, &w, res, order, norder, clock);
    for (unsigned c = 0; c < nc; c++) {
        free(res[c].configs);
        free(res[c].config_runs);
    }
    free(res);
    free(order);
    taskloop_history_free(&hist);
    world_free(&w);
    return true;
}
