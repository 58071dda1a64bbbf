/* tree.c — one task tree in the simulated machine: nodes made as their parents run, owners pop their newest task, idle threads steal the oldest from victims chosen as the runtime chooses them (src/sched/steal.h), and sleep after a full look finds nothing; under slb, XQueue's round-robin dispatch instead, with no stealing. */
#include "tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tunables.h"
#include "grow.h"

#define NO_NODE ((unsigned long)-1)

/* One task of the tree. */
struct tnode {
    unsigned long parent; /* NO_NODE for the root */
    unsigned pending;     /* children not complete */
    bool post;            /* sort: its quarters are sorted and its merge tree is made */
    bool merge;           /* sort: a node of a merge tree, not of the sort's */
    uint64_t a, b;        /* fib: a = n; sort: its elements [a, b); uts: a = its hash */
    unsigned depth;       /* uts: its depth (0: the root) */
};

/* A thread's deque of node indices: the owner's end is the top. */
struct tdeque {
    unsigned long *v;          /* entries [head, top) */
    unsigned long head, top;   /* thieves take at head, the owner at top */
    unsigned long cap;         /* allocated */
};

/* The tree's run. */
struct tree_run {
    struct world *w;               /* the machine */
    const struct sim_policy *fns;  /* the policy functions */
    const struct sim_op *op;       /* the construct */
    struct tnode *nodes;           /* arena */
    unsigned long nnodes, cap;     /* used, allocated */
    unsigned long *free_list;      /* recycled node indices */
    unsigned long nfree, free_cap; /* used, allocated */
    struct tdeque *dq;             /* [T] */
    unsigned *fails;               /* [T] looks failed in a row: quick ones, then past
                                      `tries` the steps of a full look */
    uint64_t *look_rot;            /* [T] the random start of a full look's segments */
    struct loop_victims *victims;  /* [T] locality order (numa, ilan), NULL otherwise */
    bool llvm;                     /* uniformly random victims */
    unsigned tries;                /* quick looks before a full one */
    const struct dlb_params *dlb;  /* how idle threads get tasks (ILAN_DLB) */
    unsigned *request;             /* [T] the thief standing in each thread's request cell */
    unsigned *redirect_to;         /* [T] na-rp: the thief a thread's new tasks go to */
    unsigned *redirect_left;       /* [T] na-rp: how many more */
    unsigned *asks;                /* [T] asks made since the thread last had a task */
    bool root_done;                /* the tree is complete: idle threads stop asking */
    bool slb;                      /* XQueue's static round-robin dispatch (policy slb) */
    struct tdeque *slbq;           /* slb: [T * T] the queue from producer p to consumer c at
                                      c * T + p (p == c: c's master queue), first in first out */
    unsigned long *slbq_count;     /* slb: [T] tasks in all of a consumer's queues */
    unsigned *rr_next;             /* slb: [T] the consumer a producer's next task goes to */
    unsigned *aux_next;            /* slb: [T] the producer whose auxiliary queue a consumer
                                      looks at first when its master queue is empty */
    struct tdeque *at_once;        /* slb: [T] tasks a thread made into a full queue: it runs
                                      them itself, before anything queued */
};

static unsigned long node_new(struct tree_run *r, unsigned long parent, uint64_t a, uint64_t b,
                              unsigned depth, bool merge)
{
    unsigned long i;
    if (r->nfree) {
        i = r->free_list[--r->nfree];
    } else {
        if (r->nnodes == r->cap)
            r->nodes = sim_grow(r->nodes, &r->cap, sizeof *r->nodes, 1024, "a task tree");
        i = r->nnodes++;
    }
    r->nodes[i] = (struct tnode){parent, 0, false, merge, a, b, depth};
    return i;
}

static void node_free(struct tree_run *r, unsigned long i)
{
    if (r->nfree == r->free_cap)
        r->free_list = sim_grow(r->free_list, &r->free_cap, sizeof *r->free_list, 1024, "a task tree");
    r->free_list[r->nfree++] = i;
}

/* Appends node at d's top. When the storage is full it slides the entries
 * left down if at least half of it was taken from the head, else it grows,
 * from `first_cap` entries. */
static void append(struct tdeque *d, unsigned long node, unsigned long first_cap,
                   const char *what)
{
    if (d->top == d->cap) {
        if (d->head > 0 && d->head >= d->cap / 2) {
            memmove(d->v, d->v + d->head, (d->top - d->head) * sizeof *d->v);
            d->top -= d->head;
            d->head = 0;
        } else {
            d->v = sim_grow(d->v, &d->cap, sizeof *d->v, first_cap, what);
        }
    }
    d->v[d->top++] = node;
}

static void push(struct tdeque *d, unsigned long node)
{
    append(d, node, 1024, "a task tree");
}

/* Appends node to slb queue q, which is taken from its head (first in,
 * first out). Its storage starts at a few entries, not push's 1024: 192
 * threads have 36,864 queues, most holding a few tasks. */
static void queue_append(struct tdeque *q, unsigned long node)
{
    append(q, node, 8, "an XQueue queue");
}

/* fib's calls in a serial subtree of fib(n): 2 fib(n + 1) - 1. */
static double fib_calls(uint64_t n)
{
    double a = 0, b = 1; /* fib(0), fib(1) */
    for (uint64_t i = 0; i <= n; i++) {
        double c = a + b;
        a = b;
        b = c;
    }
    return 2 * a - 1;
}

/* A uts node's hash for child i of a node with hash h (splitmix64). */
static uint64_t child_hash(uint64_t h, unsigned long i)
{
    uint64_t z = h + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* How many children node x has (0: a leaf). */
static unsigned long children(const struct tree_run *r, const struct tnode *x)
{
    const struct sim_op *op = r->op;
    switch (op->shape) {
    case SHAPE_FIB:
        return x->a < 2 || (op->cutoff && x->a <= op->cutoff) ? 0 : 2;
    case SHAPE_SORT: /* four quarters to sort; a merge splits in two */
        return x->b - x->a <= op->cutoff ? 0 : x->merge ? 2 : 4;
    case SHAPE_UTS:
        if (x->depth == 0)
            return op->iters[0];
        return (double)(x->a >> 11) * 0x1.0p-53 < op->q ? op->m : 0;
    }
    return 0;
}

/* The piece that running node i is. */
static struct piece node_piece(const struct tree_run *r, unsigned long i)
{
    const struct sim_op *op = r->op;
    const struct tnode *x = &r->nodes[i];
    struct piece p = {op, 1, 0, 1, op->ns, op->bytes, i};
    switch (op->shape) {
    case SHAPE_FIB:
        if (children(r, x) == 0) { /* a serial subtree */
            double calls = fib_calls(x->a);
            p.compute_ns = op->ns * calls;
            p.bytes = op->bytes * calls;
        }
        break;
    case SHAPE_SORT: {
        double s = (double)(x->b - x->a);
        p.n = op->iters[0];
        p.lo = x->a;
        p.hi = x->b;
        if (x->merge && children(r, x) == 0) { /* a leaf of a merge: both of its passes */
            p.compute_ns = 2 * op->ns * s;
            p.bytes = 2 * op->bytes * s;
        } else if (x->merge) { /* a merge split in two: a binary search */
            p.compute_ns = op->ns * log2(s);
            p.bytes = 0;
        } else if (children(r, x) == 0) { /* a leaf sorted serially */
            p.compute_ns = op->ns * s * log2(s > 2 ? s : 2);
            p.bytes = op->bytes * s;
        } else { /* an inner node only makes its children */
            p.compute_ns = 0;
            p.bytes = 0;
        }
        break;
    }
    case SHAPE_UTS:
        break;
    }
    return p;
}

/* Wakes the lowest sleeping thread, if any, at now plus a wake-up from thread t. */
static void wake_one(struct world *w, unsigned t, double now)
{
    for (unsigned o = 0; o < w->nthreads; o++)
        if (w->threads[o].state == TH_ASLEEP) {
            world_wake(w, o, now + w->p->wake_ns * world_far(w, w->threads[t].node, w->threads[o].node));
            return;
        }
}

/*
 * Thread t (the producer) has made task `node` at th->at; under slb it goes
 * where XQueue's dispatch sends it (seed 002, section 2.2): to the queue
 * its round robin points at, its own master queue first, then its
 * auxiliary queue in each next thread, one thread per task made; into a
 * full queue it does not go, and t runs it itself (before anything
 * queued). A push to another thread's queue is a remote write: one cache
 * line moves, charged to the producer as the model's other one-line
 * cross-thread operations (an empty look, a DLB request) are,
 * steal_fail_ns x dist/10; seed 002 (6.2.1) puts a task pushed away at
 * "more than 100 ns". Looking whether the queue is full is not charged.
 * An idle consumer sees the task as soon as it is written: XGOMP's idle
 * workers spin on their queues, so no wake-up (wake_ns) is paid.
 */
static void slb_dispatch(struct tree_run *r, unsigned t, unsigned long node)
{
    struct world *w = r->w;
    struct sim_thread *th = &w->threads[t];
    unsigned T = w->nthreads;
    unsigned c = r->rr_next[t];
    r->rr_next[t] = (c + 1) % T;
    struct tdeque *q = &r->slbq[(size_t)c * T + t];
    if (q->top - q->head >= w->in->slb_queue) {
        push(&r->at_once[t], node);
        th->run_at_once++;
        return;
    }
    if (c != t)
        th->at += w->p->steal_fail_ns * world_far(w, th->node, w->threads[c].node);
    queue_append(q, node);
    r->slbq_count[c]++;
    w->threads[c].queued_in++;
    world_wake(w, c, th->at);
}

/* Thread t under slb at `now`: runs its newest task made into a full
 * queue, else the oldest of its master queue, else the oldest of its
 * auxiliary queues (looked at round robin from the one after the queue it
 * took from last); with nothing in them it waits (it never looks at
 * another thread's queues) until a producer writes into one. */
static void slb_decide(struct tree_run *r, unsigned t, double now)
{
    struct world *w = r->w;
    struct sim_thread *th = &w->threads[t];
    unsigned T = w->nthreads;
    struct tdeque *own = &r->at_once[t];
    unsigned long node;
    if (own->top > own->head) {
        node = own->v[--own->top];
        if (own->top == own->head)
            own->top = own->head = 0;
    } else if (r->slbq_count[t] > 0) {
        struct tdeque *q = &r->slbq[(size_t)t * T + t];
        if (q->top == q->head) {
            unsigned p = r->aux_next[t];
            for (unsigned k = 0; k < T; k++, p = (p + 1) % T)
                if (p != t && r->slbq[(size_t)t * T + p].top > r->slbq[(size_t)t * T + p].head)
                    break;
            q = &r->slbq[(size_t)t * T + p];
            r->aux_next[t] = (p + 1) % T;
        }
        node = q->v[q->head++];
        if (q->head == q->top)
            q->head = q->top = 0;
        r->slbq_count[t]--;
    } else {
        th->state = TH_ASLEEP;
        return;
    }
    th->piece = node_piece(r, node);
    th->state = TH_STARTING;
    th->at = now + w->p->task_start_ns;
}

/* Thread t takes the oldest task of victim v into a piece. */
static void steal_from(struct tree_run *r, unsigned t, unsigned v, double at)
{
    struct world *w = r->w;
    struct sim_thread *th = &w->threads[t];
    struct tdeque *vd = &r->dq[v];
    unsigned long node = vd->v[vd->head++];
    /* ILAN_DLB_STEAL under ws: the steal takes up to that many, the
     * thief runs the oldest and queues the others */
    for (unsigned k = 1; k < r->dlb->steal && vd->head < vd->top; k++)
        push(&r->dq[t], vd->v[vd->head++]);
    double far = world_far(w, th->node, w->threads[v].node);
    th->steals++;
    th->steals_remote += far > 1;
    th->last_victim = v;
    th->piece = node_piece(r, node);
    th->state = TH_STARTING;
    th->at = at + w->p->steal_ns * far;
    r->fails[t] = 0;
}

static bool has_tasks(const struct tree_run *r, unsigned v)
{
    return r->dq[v].head < r->dq[v].top;
}

/* A victim as the thief draws it: uniformly (llvm), its own group first
 * (the ILAN modes' order), or steal_next_victim. */
static unsigned draw_victim(struct tree_run *r, unsigned t, unsigned last)
{
    struct sim_thread *th = &r->w->threads[t];
    unsigned n = r->w->nthreads;
    if (r->llvm) {
        unsigned v = (unsigned)(steal_rand(&th->rng) % (n - 1));
        return v + (v >= t);
    }
    if (r->victims && r->victims[t].nseg >= 2) {
        unsigned far = 0;
        return steal_victim_near_first(&r->victims[t], t, r->dlb->plocal, last, &far, &th->rng);
    }
    return r->fns->next_victim(r->fns->ws_steal, t, n, last, &th->rng);
}

/* Thread t (the victim) hands tasks to the thief standing in its cell or
 * being redirected to, as the runtime's core/dlb.c does: na-ws moves up
 * to N_steal of its oldest queued tasks (a request on an empty deque
 * stands); na-rp sends its next N_steal new tasks (through `made`, the
 * task just created, NO_NODE when none: then it moves queued ones, as an
 * idle round does). Returns whether `made` went to the thief. */
static bool dlb_serve(struct tree_run *r, unsigned t, unsigned long made, double now)
{
    struct world *w = r->w;
    struct tdeque *d = &r->dq[t];
    if (r->dlb->strategy == DLB_NA_RP && r->redirect_left[t] == 0 && r->request[t] != DLB_NO_THIEF &&
        made != NO_NODE) {
        r->redirect_to[t] = r->request[t];
        r->redirect_left[t] = r->dlb->steal;
        r->request[t] = DLB_NO_THIEF;
    }
    unsigned thief = DLB_NO_THIEF, moved = 0;
    bool sent = false;
    if (r->dlb->strategy == DLB_NA_RP && r->redirect_left[t] > 0 && made != NO_NODE) {
        thief = r->redirect_to[t];
        push(&r->dq[thief], made);
        r->redirect_left[t]--;
        sent = true;
        moved = 1;
    } else if (r->request[t] != DLB_NO_THIEF && d->head < d->top) {
        thief = r->request[t];
        r->request[t] = DLB_NO_THIEF;
        r->redirect_left[t] = 0;
        for (; moved < r->dlb->steal && d->head < d->top; moved++)
            push(&r->dq[thief], d->v[d->head++]);
    }
    if (thief != DLB_NO_THIEF) {
        double far = world_far(w, w->threads[t].node, w->threads[thief].node);
        /* The victim writes the tasks' pointers into the thief's queue:
         * remote writes, charged per cache line (8 pointers of 8 bytes) as
         * slb's pushes are (slb_dispatch), which write one each. */
        w->threads[t].at += w->p->steal_fail_ns * far * ((moved + 7) / 8);
        w->threads[thief].steals++;
        w->threads[thief].steals_remote += far > 1;
        world_wake_by(w, thief, now + w->p->steal_ns * far);
    }
    return sent;
}

/* An idle thread under na-ws or na-rp: asks N_victim victims (a cell
 * holding another thief's request is left alone; its own group with
 * P_local for its first asks, farther for later ones: dlb_ask_draw), then
 * waits T_interval idle rounds for an answer before asking again; a
 * victim's answer wakes it sooner. */
static void dlb_ask_and_wait(struct tree_run *r, unsigned t, double now)
{
    struct world *w = r->w;
    struct sim_thread *th = &w->threads[t];
    if (r->root_done || w->nthreads == 1) {
        th->state = TH_ASLEEP;
        return;
    }
    /* the victims as the runtime's dlb_ask draws them (sched/dlb.h) */
    double plocal;
    unsigned far;
    dlb_ask_draw(r->dlb->plocal, r->asks[t]++, &plocal, &far);
    double cost = 0;
    for (unsigned i = 0; i < r->dlb->victims; i++) {
        unsigned v;
        if (r->victims && r->victims[t].nseg >= 2) {
            v = steal_victim_near_first(&r->victims[t], t, plocal, STEAL_NO_VICTIM, &far, &th->rng);
        } else {
            v = (unsigned)(steal_rand(&th->rng) % (w->nthreads - 1));
            v += v >= t;
        }
        cost += w->p->steal_fail_ns * world_far(w, th->node, w->threads[v].node);
        if (r->request[v] == DLB_NO_THIEF)
            r->request[v] = t;
    }
    th->at = now + cost + w->p->steal_fail_ns * r->dlb->interval;
}

static void tree_decide(struct world *w, unsigned t, void *ctx)
{
    struct tree_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    struct tdeque *d = &r->dq[t];
    double now = th->at;
    if (r->slb) {
        slb_decide(r, t, now);
        return;
    }
    if (d->top > d->head) {
        r->asks[t] = 0;
        th->piece = node_piece(r, d->v[--d->top]);
        if (d->top == d->head)
            d->top = d->head = 0;
        th->state = TH_STARTING;
        th->at = now + w->p->task_start_ns;
        if (r->dlb->strategy != DLB_WS) /* a scheduling point: a request may be served */
            dlb_serve(r, t, NO_NODE, now);
        return;
    }
    unsigned n = w->nthreads;
    if (n == 1) {
        th->state = TH_ASLEEP;
        return;
    }
    if (r->dlb->strategy != DLB_WS) {
        dlb_ask_and_wait(r, t, now);
        return;
    }
    if (r->fails[t] < r->tries) { /* a quick look: one victim */
        unsigned v = draw_victim(r, t, th->last_victim);
        if (has_tasks(r, v)) {
            steal_from(r, t, v, now);
            return;
        }
        th->last_victim = STEAL_NO_VICTIM;
        r->fails[t]++;
        th->at = now + w->p->steal_fail_ns * world_far(w, th->node, w->threads[v].node);
        return;
    }
    /* A full look before sleeping: every other thread once, in locality
     * order where the policy has one, one look per step (what it takes is
     * claimed when it gets there). */
    unsigned step = r->fails[t] - r->tries;
    if (step == 0)
        r->look_rot[t] = steal_rand(&th->rng);
    unsigned v = r->victims ? loop_victim_at(&r->victims[t], step, r->look_rot[t])
                            : (t + 1 + step) % n;
    if (has_tasks(r, v)) {
        steal_from(r, t, v, now);
        return;
    }
    if (step + 2 == n) { /* looked at every other thread: sleep */
        r->fails[t] = 0;
        th->state = TH_ASLEEP;
        return;
    }
    r->fails[t]++;
    th->at = now + w->p->steal_fail_ns * world_far(w, th->node, w->threads[v].node);
}

static void tree_finished(struct world *w, unsigned t, double now, void *ctx)
{
    struct tree_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    unsigned long i = th->piece.node;
    struct tnode *x = &r->nodes[i];
    unsigned long k = children(r, x);
    if (k) { /* make the children, newest last: the owner runs it first */
        x->pending = (unsigned)k;
        uint64_t a = x->a, b = x->b, s = b - a;
        unsigned depth = x->depth;
        bool merge = x->merge;
        for (unsigned long c = 0; c < k; c++) {
            unsigned long child;
            switch (r->op->shape) {
            case SHAPE_FIB:
                child = node_new(r, i, a - 1 - c, 0, depth + 1, false);
                break;
            case SHAPE_SORT:
                child = node_new(r, i, a + s * c / k, a + s * (c + 1) / k, depth + 1, merge);
                break;
            default:
                child = node_new(r, i, child_hash(a, c), 0, depth + 1, false);
                break;
            }
            th->at += w->p->task_create_ns;
            if (r->slb) {
                slb_dispatch(r, t, child);
                continue;
            }
            if (r->dlb->strategy != DLB_WS && dlb_serve(r, t, child, th->at))
                continue; /* na-rp: it went to a thief */
            push(&r->dq[t], child);
            wake_one(w, t, th->at); /* a sleeper wakes to steal, or to ask */
            if (r->dlb->strategy != DLB_WS)
                dlb_serve(r, t, NO_NODE, th->at); /* na-ws: a standing request now finds it */
        }
        return;
    }
    /* Complete x, and every ancestor whose last child it was. */
    for (;;) {
        unsigned long parent = r->nodes[i].parent;
        node_free(r, i);
        if (parent == NO_NODE) {
            r->root_done = true;
            return;
        }
        struct tnode *p = &r->nodes[parent];
        if (--p->pending > 0)
            return;
        if (r->op->shape == SHAPE_SORT && !p->merge && !p->post) {
            /* its quarters are sorted: their merge, split as cilksort
             * splits it, is its last child, made here */
            p->post = true;
            p->pending = 1;
            uint64_t a = p->a, b = p->b;
            unsigned depth = p->depth;
            unsigned long made = node_new(r, parent, a, b, depth + 1, true);
            if (r->slb) {
                slb_dispatch(r, t, made);
                return;
            }
            push(&r->dq[t], made);
            wake_one(w, t, now);
            return;
        }
        i = parent;
    }
}

double tree_run(struct world *w, const struct sim_policy *fns, const struct sim_op *op, double t0)
{
    unsigned T = w->nthreads;
    /* The thesis's runtime is LLVM libomp: its tasks are LLVM's. */
    struct tree_run r = {.w = w, .fns = fns, .op = op,
                         .llvm = w->in->kind == POL_LLVM || w->in->kind == POL_THESIS};
    r.dq = calloc(T, sizeof *r.dq);
    r.fails = calloc(T, sizeof *r.fails);
    r.dlb = &w->in->dlb;
    r.request = malloc(T * sizeof *r.request);
    r.redirect_to = calloc(T, sizeof *r.redirect_to);
    r.redirect_left = calloc(T, sizeof *r.redirect_left);
    r.asks = calloc(T, sizeof *r.asks);
    r.slb = w->in->slb;
    if (r.slb) {
        r.slbq = calloc((size_t)T * T, sizeof *r.slbq);
        r.slbq_count = calloc(T, sizeof *r.slbq_count);
        r.rr_next = malloc(T * sizeof *r.rr_next);
        r.aux_next = malloc(T * sizeof *r.aux_next);
        r.at_once = calloc(T, sizeof *r.at_once);
        if (!r.slbq || !r.slbq_count || !r.rr_next || !r.aux_next || !r.at_once) {
            fprintf(stderr, "ilan-sim-engine: out of memory\n");
            exit(1);
        }
        for (unsigned t = 0; t < T; t++) {
            r.rr_next[t] = t; /* the round robin starts at the master queue */
            r.aux_next[t] = (t + 1) % T;
        }
    }
    if (!r.dq || !r.fails || !r.request || !r.redirect_to || !r.redirect_left || !r.asks) {
        fprintf(stderr, "ilan-sim-engine: out of memory\n");
        exit(1);
    }
    for (unsigned t = 0; t < T; t++)
        r.request[t] = DLB_NO_THIEF;
    r.look_rot = calloc(T, sizeof *r.look_rot);
    r.tries = steal_tries(T > 1 ? T : 2, false, ILAN_TASK_STEAL_TRIES, ILAN_TASK_STEAL_TRIES_MAX);
    unsigned *order = NULL, *seg_end = NULL, *group_of = NULL;
    if (w->in->kind == POL_NUMA || w->in->kind == POL_ILAN) {
        /* the ILAN modes' victims: own group first, then the nearest groups */
        unsigned G = w->groups.ngroups;
        int *gdist = malloc((size_t)G * G * sizeof *gdist);
        r.victims = calloc(T, sizeof *r.victims);
        order = malloc((size_t)T * (T > 1 ? T - 1 : 1) * sizeof *order);
        seg_end = malloc((size_t)T * G * sizeof *seg_end);
        group_of = malloc((size_t)T * T * sizeof *group_of);
        if (!gdist || !r.victims || !order || !seg_end || !group_of) {
            fprintf(stderr, "ilan-sim-engine: out of memory\n");
            exit(1);
        }
        world_group_distances(w, gdist);
        for (unsigned t = 0; t < T; t++) {
            r.victims[t] = (struct loop_victims){.order = order + (size_t)t * (T > 1 ? T - 1 : 1),
                                                 .seg_end = seg_end + (size_t)t * G,
                                                 .group_of = group_of + (size_t)t * T};
            loop_victims_build(t, T, w->groups.slot_group, G, gdist, VICTIMS_BY_GROUP,
                              &r.victims[t]);
        }
        free(gdist);
    }
    for (unsigned t = 0; t < T; t++) {
        w->threads[t].state = TH_ASLEEP;
        w->threads[t].last_end = 0;
        w->threads[t].last_victim = STEAL_NO_VICTIM;
    }
    unsigned long root = op->shape == SHAPE_SORT ? node_new(&r, NO_NODE, 0, op->iters[0], 0, false)
                         : op->shape == SHAPE_FIB ? node_new(&r, NO_NODE, op->iters[0], 0, 0, false)
                                                  : node_new(&r, NO_NODE, op->tree_seed, 0, 0, false);
    if (r.slb) { /* thread 0 makes the root: into its master queue, its round robin moves on */
        queue_append(&r.slbq[0], root);
        r.slbq_count[0]++;
        w->threads[0].queued_in++;
        r.rr_next[0] = 1 % T;
    } else {
        push(&r.dq[0], root);
    }
    world_wake(w, 0, t0);
    struct phase_rules rules = {tree_decide, tree_finished, &r};
    double end = world_run_phase(w, &rules, t0);
    for (unsigned t = 0; t < T; t++)
        free(r.dq[t].v);
    free(r.dq);
    free(r.fails);
    free(r.request);
    free(r.redirect_to);
    free(r.redirect_left);
    free(r.asks);
    if (r.slb) {
        for (size_t q = 0; q < (size_t)T * T; q++)
            free(r.slbq[q].v);
        for (unsigned t = 0; t < T; t++)
            free(r.at_once[t].v);
    }
    free(r.slbq);
    free(r.slbq_count);
    free(r.rr_next);
    free(r.aux_next);
    free(r.at_once);
    free(r.look_rot);
    free(r.nodes);
    free(r.free_list);
    free(r.victims);
    free(order);
    free(seg_end);
    free(group_of);
    return end;
}
