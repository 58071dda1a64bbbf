/* task_deps.c — task dependences among sibling tasks: a hash per parent from address to the tasks last named with it. */
#include "core/task_deps.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/mutex.h"
#include "core/task_queue.h"
#include "core/thread.h"

/*
 * For each address, an entry keeps the incomplete sibling tasks of the
 * current "group" and of the previous one. A group is a maximal run of
 * dependences of one concurrent kind (in, or inoutset) or a single writer
 * (out, inout, mutexinoutset: ilan serializes mutexinoutset like inout,
 * which is conforming — the tasks are then also ordered, not only
 * mutually exclusive). A new dependence either joins the current group
 * (same concurrent kind: it waits for the previous group) or starts a new
 * one (it waits for the whole current group, which becomes the previous).
 * Members of a group complete only after every member of the group before
 * (they depend on all of them), so waiting for two groups is enough.
 * A task leaves the lists when it completes, so the lists only ever hold
 * incomplete tasks and an entry whose lists are empty is freed.
 * Everything here is guarded by the parent's `lock`: siblings register
 * (on the thread running the parent) and complete (on any thread) under it.
 */

enum dep_kind {
    DEP_IN = 1,       /* in */
    DEP_OUT = 2,      /* out, inout, mutexinoutset */
    DEP_INOUTSET = 5, /* inoutset (GOMP_DEPEND_INOUTSET) */
};

struct tlist {
    struct task **v; /* tasks */
    unsigned n, cap; /* used, allocated */
};

struct task_depnode {
    void *addr;                /* the storage location named in depend clauses */
    struct task_depnode *next; /* bucket chain */
    unsigned kind;             /* kind of the current group */
    struct tlist cur;          /* incomplete tasks of the current group */
    struct tlist prev;         /* incomplete tasks of the previous group */
};

struct task_deps {
    mutex_t lock;                  /* guards everything below and the tasks' succ lists */
    struct task_depnode **bucket;  /* chains */
    unsigned nbuckets;             /* power of two */
    unsigned nentries;             /* entries in the table */
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        ilan_fatal("out of memory recording task dependences");
    return q;
}

static void tlist_add(struct tlist *l, struct task *t)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = t;
}

static bool tlist_remove(struct tlist *l, struct task *t)
{
    for (unsigned i = 0; i < l->n; i++)
        if (l->v[i] == t) {
            l->v[i] = l->v[--l->n];
            return true;
        }
    return false;
}

static inline unsigned hash_addr(void *addr, unsigned nbuckets)
{
    uint64_t h = (uint64_t)(uintptr_t)addr * 0x9E3779B97F4A7C15ULL;
    return (unsigned)(h >> 32) & (nbuckets - 1);
}

static struct task_deps *deps_new(void)
{
    struct task_deps *d = calloc(1, sizeof *d);
    if (!d)
        ilan_fatal("out of memory recording task dependences");
    d->nbuckets = 16;
    d->bucket = calloc(d->nbuckets, sizeof *d->bucket);
    if (!d->bucket)
        ilan_fatal("out of memory recording task dependences");
    return d;
}

static void deps_grow(struct task_deps *d)
{
    unsigned nb = d->nbuckets * 2;
    struct task_depnode **b = calloc(nb, sizeof *b);
    if (!b)
        return; /* keep the longer chains */
    for (unsigned i = 0; i < d->nbuckets; i++)
        for (struct task_depnode *e = d->bucket[i], *next; e; e = next) {
            next = e->next;
            unsigned h = hash_addr(e->addr, nb);
            e->next = b[h];
            b[h] = e;
        }
    free(d->bucket);
    d->bucket = b;
    d->nbuckets = nb;
}

static struct task_depnode *deps_lookup(struct task_deps *d, void *addr)
{
    unsigned h = hash_addr(addr, d->nbuckets);
    for (struct task_depnode *e = d->bucket[h]; e; e = e->next)
        if (e->addr == addr)
            return e;
    if (d->nentries >= 2 * d->nbuckets) {
        deps_grow(d);
        h = hash_addr(addr, d->nbuckets);
    }
    struct task_depnode *e = calloc(1, sizeof *e);
    if (!e)
        ilan_fatal("out of memory recording task dependences");
    e->addr = addr;
    e->next = d->bucket[h];
    d->bucket[h] = e;
    d->nentries++;
    return e;
}

static void deps_drop(struct task_deps *d, struct task_depnode *e)
{
    unsigned h = hash_addr(e->addr, d->nbuckets);
    struct task_depnode **pp = &d->bucket[h];
    while (*pp != e)
        pp = &(*pp)->next;
    *pp = e->next;
    d->nentries--;
    free(e->cur.v);
    free(e->prev.v);
    free(e);
}

/* t must wait for p (p incomplete: it is still in a list). */
static void add_edge(struct task *p, struct task *t)
{
    if (p == t)
        return;
    if (p->nsucc == p->succ_cap) {
        p->succ_cap = p->succ_cap ? 2 * p->succ_cap : 4;
        p->succ = xrealloc(p->succ, p->succ_cap * sizeof *p->succ);
    }
    p->succ[p->nsucc++] = t;
    atomic_fetch_add_explicit(&t->npred, 1, memory_order_relaxed);
}

/* One (address, kind) pair of a depend array. */
struct dep {
    void *addr;
    unsigned kind;
};

/* Decodes gcc 12's depend array into out[] (n entries, from depend_count). */
static size_t depend_count(void **depend)
{
    uintptr_t n = (uintptr_t)depend[0];
    return n ? n : (uintptr_t)depend[1];
}

static void depend_decode(void **depend, struct dep *out, size_t n)
{
    if ((uintptr_t)depend[0]) {
        /* Old layout: {n, nout, out/inout addresses..., in addresses...}. */
        uintptr_t nout = (uintptr_t)depend[1];
        for (size_t i = 0; i < n; i++)
            out[i] = (struct dep){depend[2 + i], i < nout ? DEP_OUT : DEP_IN};
        return;
    }
    /* New layout: {0, n, nout, nmutexinoutset, nin, addresses (out/inout,
     * mutexinoutset, in), then pointers to depobjs {addr, kind}}. */
    uintptr_t nout = (uintptr_t)depend[2], nmutex = (uintptr_t)depend[3];
    uintptr_t nin = (uintptr_t)depend[4];
    for (size_t i = 0; i < n; i++) {
        void *p = depend[5 + i];
        if (i < nout + nmutex) {
            out[i] = (struct dep){p, DEP_OUT};
        } else if (i < nout + nmutex + nin) {
            out[i] = (struct dep){p, DEP_IN};
        } else {
            void **obj = p; /* omp_depend_t: {address, GOMP_DEPEND_* kind} */
            uintptr_t k = (uintptr_t)obj[1];
            unsigned kind = k == 1 ? DEP_IN : k == 5 ? DEP_INOUTSET : DEP_OUT;
            if (k < 1 || k > 5)
                ilan_fatal("task dependence on an uninitialized or destroyed depobj (kind %lu)",
                           (unsigned long)k);
            out[i] = (struct dep){obj[0], kind};
        }
    }
}

/* Writers first, then inoutset, then readers: a location named twice by
 * one task counts with its strongest kind (the later ones are skipped). */
static unsigned kind_rank(unsigned kind)
{
    return kind == DEP_OUT ? 0 : kind == DEP_INOUTSET ? 1 : 2;
}

bool task_deps_register(struct ilan_thread *ts, struct task *parent, struct task *t,
                        void **depend)
{
    (void)ts;
    size_t n = depend_count(depend);
    if (n == 0)
        return true;
    struct dep small[16];
    struct dep *dv = n <= 16 ? small : malloc(n * sizeof *dv);
    if (!dv)
        ilan_fatal("out of memory recording task dependences");
    depend_decode(depend, dv, n);
    t->depnodes = xrealloc(NULL, n * sizeof *t->depnodes);
    t->ndepnodes = 0;
    atomic_store_explicit(&t->npred, 1, memory_order_relaxed);

    if (!parent->deps)
        parent->deps = deps_new(); /* only the thread running parent gets here */
    struct task_deps *d = parent->deps;
    mutex_lock(&d->lock);
    for (unsigned rank = 0; rank < 3; rank++) {
        for (size_t i = 0; i < n; i++) {
            if (kind_rank(dv[i].kind) != rank)
                continue;
            struct task_depnode *e = deps_lookup(d, dv[i].addr);
            if (e->cur.n && e->cur.v[e->cur.n - 1] == t)
                continue; /* named again by this task */
            unsigned kind = dv[i].kind;
            if (kind != DEP_OUT && kind == e->kind) {
                for (unsigned j = 0; j < e->prev.n; j++)
                    add_edge(e->prev.v[j], t);
            } else {
                for (unsigned j = 0; j < e->cur.n; j++)
                    add_edge(e->cur.v[j], t);
                struct tlist old = e->prev;
                e->prev = e->cur;
                e->cur = old;
                e->cur.n = 0;
                e->kind = kind;
            }
            tlist_add(&e->cur, t);
            t->depnodes[t->ndepnodes++] = e;
        }
    }
    mutex_unlock(&d->lock);
    if (dv != small)
        free(dv);
    return atomic_fetch_sub_explicit(&t->npred, 1, memory_order_acq_rel) == 1;
}

void task_deps_release(struct ilan_thread *ts, struct task *t)
{
    struct task_deps *d = task_parent(t)->deps;
    unsigned nready = 0;
    mutex_lock(&d->lock);
    for (unsigned i = 0; i < t->ndepnodes; i++) {
        struct task_depnode *e = t->depnodes[i];
        if (!tlist_remove(&e->cur, t))
            tlist_remove(&e->prev, t);
        if (e->cur.n == 0 && e->prev.n == 0)
            deps_drop(d, e);
    }
    t->ndepnodes = 0;
    for (unsigned i = 0; i < t->nsucc; i++) {
        struct task *s = t->succ[i];
        /* Read before the decrement: an undeferred successor's creator
         * runs and frees it as soon as npred reaches 0. */
        bool undeferred = s->state_flags & TASK_UNDEFERRED;
        if (atomic_fetch_sub_explicit(&s->npred, 1, memory_order_acq_rel) == 1 && !undeferred)
            t->succ[nready++] = s;
    }
    t->nsucc = 0;
    mutex_unlock(&d->lock);
    for (unsigned i = 0; i < nready; i++)
        task_sched_push_released(ts, t->succ[i]);
}

void task_deps_destroy(struct task *t)
{
    struct task_deps *d = t->deps;
    if (!d)
        return;
    for (unsigned i = 0; i < d->nbuckets; i++)
        while (d->bucket[i])
            deps_drop(d, d->bucket[i]);
    free(d->bucket);
    free(d);
    t->deps = NULL;
}
