/* report.c — what ILAN_REPORT holds: the machine model, and per taskloop identity its executions, explored configurations and choice (written by instr/report.c). */
#include "core/bubble.h"
#include "ilan/report.h"
#include "mem/query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/loop_hist.h"
#include "config/env.h"
#include "ilan/history.h"
#include "instr/report.h"
#include "instr/results.h"
#include "topo/places.h"
#include "topo/topo.h"
#include "base/tunables.h"

static const char *mode_name(enum taskloop_mode m)
{
    return m == TASKLOOP_ILAN ? "ilan" : m == TASKLOOP_NUMA ? "numa" : "ws";
}

static const char *state_name(enum mold_phase p)
{
    return p == MOLD_SETTLED ? "settled" : p == MOLD_FIXED ? "fixed" : "exploring";
}

/* A JSON string literal of s (escapes quotes, backslashes, controls). */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* [a, b, ...] of n ints. */
static void json_ints(FILE *f, const int *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ", " : "", v[i]);
    fputc(']', f);
}

/* The groups a team of one thread per place would have; with no places
 * (threads unbound), those of one unbound thread per core: the NUMA nodes
 * on a machine of several, else a group per thread (ilan/groups.c). */
static bool machine_groups(struct team_groups *g)
{
    bool bound = places.os.n > 0;
    unsigned n = bound ? places.os.n : (unsigned)topo.ncores;
    int *cores = malloc((n ? n : 1) * sizeof *cores);
    if (!cores)
        return false;
    for (unsigned p = 0; p < n; p++)
        cores[p] = bound ? topo_core_of_cpu(places.os.cpus[places.os.first[p]])
                   : topo.nnodes > 1 ? topo_first_core_of_node(topo.core_node[p]) : -1;
    bool ok = groups_build(&topo, n, cores, g);
    free(cores);
    return ok;
}

/* [c, ...]: the cores whose key (group_key under kind k) is `key`; writes
 * the node of the last one to *node (untouched when there is none). */
static void json_cores_of(FILE *f, enum group_kind k, int key, int *node)
{
    bool first = true;
    fputc('[', f);
    for (int c = 0; c < topo.ncores; c++) {
        if (group_key(&topo, k, c) != key)
            continue;
        fprintf(f, "%s%d", first ? "" : ", ", c);
        first = false;
        *node = topo.core_node[c];
    }
    fputc(']', f);
}

static void json_topology(FILE *f)
{
    fprintf(f, "  \"topology\": {\n    \"source\": ");
    json_string(f, topo.source ? topo.source : "unknown");
    fprintf(f, ",\n    \"whatif\": %s,\n", topo.whatif ? "true" : "false");
    /* Unbound threads may move: their groups are a best effort. */
    fprintf(f, "    \"binding\": \"%s\",\n",
            places.os.n ? "places"
                        : "none: threads are unbound, locality groups follow the CPUs they ran on "
                          "(best effort)");
    fprintf(f, "    \"packages\": %d, \"nodes\": %d, \"llcs\": %d, \"cores\": %d, \"pus\": %d,\n",
            topo.npackages, topo.nnodes, topo.nllcs, topo.ncores, topo.npus);
    struct team_groups g = {0};
    bool have = machine_groups(&g);
    fprintf(f, "    \"group_kind\": \"%s\",\n    \"groups\": [", group_kind_name(have ? g.kind : GROUP_CORE));
    for (unsigned j = 0; have && j < g.ngroups; j++) {
        /* The node goes first in the file but is known once the cores are. */
        int node = -1;
        fprintf(f, "%s\n      {\"id\": %u, \"cores\": ", j ? "," : "", j);
        json_cores_of(f, g.kind, g.model_id[j], &node);
        fprintf(f, ", \"node\": %d}", node);
    }
    groups_free(&g);
    fprintf(f, "\n    ],\n    \"node_cores\": [");
    for (int n = 0; n < topo.nnodes; n++) {
        int node;
        fputs(n ? ", " : "", f);
        json_cores_of(f, GROUP_NODE, n, &node);
    }
    /* Per core, in model order: what a model of the machine (ilan sim)
     * needs beyond the nodes' cores. */
    fprintf(f, "],\n    \"core_llc\": ");
    json_ints(f, topo.core_llc, topo.ncores);
    fprintf(f, ",\n    \"core_package\": ");
    json_ints(f, topo.core_package, topo.ncores);
    fprintf(f, ",\n    \"core_pus\": [");
    for (int c = 0; c < topo.ncores; c++)
        fprintf(f, "%s%d", c ? ", " : "", topo.core_first_pu[c + 1] - topo.core_first_pu[c]);
    fprintf(f, "],\n    \"distances\": [");
    for (int a = 0; a < topo.nnodes; a++) {
        fputs(a ? ", " : "", f);
        json_ints(f, topo.dist + a * topo.nnodes, topo.nnodes);
    }
    fprintf(f, "],\n    \"places\": [");
    for (unsigned p = 0; p < places.os.n; p++) {
        fputs(p ? ", " : "", f);
        json_ints(f, places.os.cpus + places.os.first[p],
                  (int)(places.os.first[p + 1] - places.os.first[p]));
    }
    fprintf(f, "]\n  },\n");
}

/* The group ids of cfg as a JSON array; returns how many. */
static unsigned json_groups(FILE *f, const struct mold *m, struct mold_config cfg, unsigned *ids)
{
    unsigned k = mold_groups(m, cfg, ids);
    fputc('[', f);
    for (unsigned j = 0; j < k; j++)
        fprintf(f, "%s%u", j ? ", " : "", ids[j]);
    fputc(']', f);
    return k;
}

/* Team threads in the groups ids[0..k-1] (as of h's latest execution). */
static unsigned config_workers(const struct taskloop_hist *h, const unsigned *ids, unsigned k)
{
    unsigned total = 0;
    for (unsigned j = 0; j < k; j++)
        total += h->group_workers[ids[j]];
    return total;
}

static void json_entry(FILE *f, struct taskloop_hist *h, unsigned *ids)
{
    const struct mold *m = &h->mold;
    const char *sym = ilan_history_symbol(h);
    fprintf(f, "    {\n      \"fn\": \"%p\",\n      \"symbol\": ", (void *)(uintptr_t)h->fn);
    if (sym[0])
        json_string(f, sym);
    else
        fputs("null", f);
    fprintf(f, ",\n      \"module\": ");
    json_string(f, h->module);
    fprintf(f, ",\n      \"module_offset\": \"0x%lx\",\n", h->module_offset);
    fprintf(f, "      \"iterations\": %llu,\n      \"executions\": %u,\n",
            (unsigned long long)h->iterations, h->runs);
    /* The ilan mode's calibration run (the first, not a configuration's
     * sample) measured the loop's work, which sets its task count. */
    if (h->work_ns > 0)
        fprintf(f, "      \"work_s\": %.9g,\n", h->work_ns * 1e-9);
    else
        fputs("      \"work_s\": null,\n", f);
    fprintf(f, "      \"team_workers\": %u,\n      \"group_kind\": \"%s\",\n", h->nthreads,
            group_kind_name(h->kind));
    /* The team's groups as this taskloop last ran: threads in each. */
    fputs("      \"group_workers\": [", f);
    for (unsigned g = 0; g < m->ngroups; g++)
        fprintf(f, "%s%u", g ? ", " : "", h->group_workers[g]);
    fputs("],\n", f);
    /* Executions with a registered array (ilan_taskloop_data): how many of
     * their tasks ran on the node holding their share of it. */
    if (h->data_runs)
        fprintf(f,
                "      \"data\": {\"array\": \"%p\", \"bytes\": %zu, \"runs\": %u, \"tasks\": %lu, "
                "\"on_data_node\": %lu},\n",
                h->data_array, h->data_size, h->data_runs, h->data_tasks, h->data_on_node);
    else
        fputs("      \"data\": null,\n", f);
    char why[200];
    mold_explain(m, why, sizeof why);
    fprintf(f, "      \"explorations\": %u,\n      \"state\": \"%s\",\n      \"status\": ",
            m->phase == MOLD_FIXED ? 0 : m->epoch, state_name(m->phase));
    json_string(f, why);
    fputs(",\n      \"configs\": [", f);
    for (unsigned e = 0; e < m->nentries; e++) {
        const struct mold_entry *en = &m->entries[e];
        fprintf(f, "%s\n        {\"groups\": ", e ? "," : "");
        unsigned k = json_groups(f, m, en->cfg, ids);
        fprintf(f, ", \"workers\": %u, \"steal\": \"%s\", \"exploration\": %u, \"runs\": %u, "
                   "\"times_s\": [",
                config_workers(h, ids, k), en->cfg.full ? "full" : "strict", en->epoch, en->count);
        unsigned kept = en->count < MOLD_KEEP ? en->count : MOLD_KEEP;
        for (unsigned i = 0; i < kept; i++)
            fprintf(f, "%s%.9g", i ? ", " : "", en->times[(en->count - kept + i) % MOLD_KEEP]);
        fprintf(f, "], \"median_s\": %.9g, \"group_times_s\": [", mold_entry_median(en));
        for (unsigned j = 0; j < k; j++)
            fprintf(f, "%s%.9g", j ? ", " : "", en->group_times ? en->group_times[ids[j]] : -1.0);
        fputs("]}", f);
    }
    fprintf(f, "\n      ],\n      \"chosen\": ");
    if (m->phase == MOLD_SETTLED) {
        fputs("{\"groups\": ", f);
        unsigned k = json_groups(f, m, m->chosen, ids);
        fprintf(f, ", \"workers\": %u, \"steal\": \"%s\"}", config_workers(h, ids, k),
                m->chosen.full ? "full" : "strict");
    } else {
        fputs("null", f);
    }
    fputs("\n    }", f);
}

/* Where ilan_history_each writes the JSON entries. */
struct json_walk {
    FILE *f;    /* the report */
    bool first; /* no entry written yet */
};

static void json_visit(struct taskloop_hist *h, void *arg)
{
    struct json_walk *w = arg;
    unsigned *ids = malloc(h->mold.ngroups * sizeof *ids);
    if (!ids)
        return;
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = false;
    mutex_lock(&h->lock);
    json_entry(w->f, h, ids);
    mutex_unlock(&h->lock);
    free(ids);
}

static void write_json(FILE *f)
{
    fprintf(f, "{\n  \"ilan_version\": \"%s\",\n  \"mode\": \"%s\",\n", ILAN_VERSION_STRING,
            mode_name(config.taskloop_mode));
    fprintf(f, "  \"steal_policy_forced\": %s,\n",
            config.forced_steal < 0 ? "null" : config.forced_steal ? "\"full\"" : "\"strict\"");
    instr_report_json(f);
    mem_report_json(f);
    bubble_report_json(f);
    json_topology(f);
    fprintf(f, "  \"history\": {\"held\": %u, \"max\": %u, \"forgotten\": %lu},\n",
            ilan_history_count(), config.history_max, ilan_history_forgotten());
    fputs("  \"taskloops\": [", f);
    struct json_walk walk = {f, true};
    ilan_history_each(json_visit, &walk);
    fputs("\n  ],\n", f);
    loop_hist_json(f);
    fputs("}\n", f);
}

/* ILAN_REPORT=stderr: the lines of one identity (ilan_history_each). */
static void summary_visit(struct taskloop_hist *h, void *arg)
{
    FILE *f = arg;
    mutex_lock(&h->lock);
    const struct mold *m = &h->mold;
    const char *sym = ilan_history_symbol(h);
    char why[200];
    mold_explain(m, why, sizeof why);
    fprintf(f, "  taskloop %s (%p), %llu iterations, %u threads, %u groups (%s): %u runs, %s\n",
            sym[0] ? sym : "?", (void *)(uintptr_t)h->fn, (unsigned long long)h->iterations,
            h->nthreads, m->ngroups, group_kind_name(h->kind), h->runs, why);
    if (h->work_ns > 0)
        fprintf(f, "      calibration run: %.3f ms of work\n", h->work_ns * 1e-6);
    if (h->data_runs)
        fprintf(f, "      data %p (%zu bytes), %u pinned run%s: %lu of %lu tasks on their data's node\n",
                h->data_array, h->data_size, h->data_runs, h->data_runs == 1 ? "" : "s",
                h->data_on_node, h->data_tasks);
    for (unsigned e = 0; e < m->nentries; e++) {
        const struct mold_entry *en = &m->entries[e];
        bool chosen = m->phase == MOLD_SETTLED && en->epoch == m->epoch &&
                      en->cfg.ngroups == m->chosen.ngroups && en->cfg.full == m->chosen.full;
        fprintf(f, "    %s %u group%s %-6s median %.3f ms over %u run%s\n",
                chosen ? "*" : " ", en->cfg.ngroups, en->cfg.ngroups == 1 ? " " : "s",
                en->cfg.full ? "full" : "strict", mold_entry_median(en) * 1e3, en->count,
                en->count == 1 ? "" : "s");
    }
    mutex_unlock(&h->lock);
}

/* ILAN_REPORT=stderr: a few lines per taskloop identity. */
static void write_summary(FILE *f)
{
    fprintf(f, "ilan report: mode %s, %d nodes, %d cores (%s)%s\n", mode_name(config.taskloop_mode),
            topo.nnodes, topo.ncores, topo.source ? topo.source : "unknown",
            places.os.n ? "" : "; threads unbound: locality groups are a best effort");
    ilan_history_each(summary_visit, f);
    bubble_report_summary(f);
    if (ilan_history_forgotten())
        fprintf(f, "  (%lu least recently used taskloop identities forgotten, ILAN_HISTORY_MAX=%u)\n",
                ilan_history_forgotten(), config.history_max);
    loop_hist_summary(f);
    instr_report_summary(f);
}

void ilan_report_at_exit(const char *dest)
{
    report_at_exit(dest, write_json, write_summary);
}
