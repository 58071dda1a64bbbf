/* record.c — the list of ranges ilan placed, newest first, behind one mutex (see record.h). */
#include "mem/record.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* One placed range. */
struct mem_rec {
    struct mem_rec *next;   /* older records */
    enum mem_rec_kind kind; /* what it stands for */
    uintptr_t start;        /* the range as the program named it */
    size_t len;             /* its length in bytes */
    struct mem_plan plan;   /* where its pages go (covers the range rounded out to pages) */
    struct mem_owner owner; /* ATTACH: the thread it follows */
    unsigned long seq;      /* when it was placed (mem_rec_next_seq) */
};

static pthread_mutex_t mem_rec_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mem_rec *mem_recs;     /* newest first; guarded by mem_rec_lock */
static _Atomic unsigned long mem_seq; /* the last stamp handed out */

unsigned long mem_rec_next_seq(void)
{
    return atomic_fetch_add_explicit(&mem_seq, 1, memory_order_relaxed) + 1;
}

/* The pages of a plan as a half-open address range. */
static void mem_rec_span(const struct mem_plan *p, uintptr_t *lo, uintptr_t *hi)
{
    *lo = p->first_page;
    *hi = p->first_page + p->npages * p->page;
}

/* Unlinks and frees the records whose pages lie inside [lo, hi), ALLOC
 * records too unless keep_allocs (mem_rec_lock held). */
static void mem_rec_drop_inside(uintptr_t lo, uintptr_t hi, bool keep_allocs)
{
    for (struct mem_rec **q = &mem_recs; *q;) {
        uintptr_t a, b;
        mem_rec_span(&(*q)->plan, &a, &b);
        if (!(keep_allocs && (*q)->kind == MEM_REC_ALLOC) && a >= lo && b <= hi) {
            struct mem_rec *dead = *q;
            *q = dead->next;
            free(dead);
        } else {
            q = &(*q)->next;
        }
    }
}

bool mem_rec_add(enum mem_rec_kind kind, uintptr_t start, size_t len, const struct mem_plan *p,
                 struct mem_owner owner)
{
    struct mem_rec *r = malloc(sizeof *r);
    if (!r)
        return false;
    *r = (struct mem_rec){NULL, kind, start, len, *p, owner, mem_rec_next_seq()};
    uintptr_t lo, hi;
    mem_rec_span(p, &lo, &hi);
    pthread_mutex_lock(&mem_rec_lock);
    mem_rec_drop_inside(lo, hi, true);
    r->next = mem_recs;
    mem_recs = r;
    pthread_mutex_unlock(&mem_rec_lock);
    return true;
}

/* True when an ALLOC record is exactly [start, start + len) (exact) or
 * holds it (mem_rec_lock held). */
static bool mem_rec_alloc_holds(uintptr_t start, size_t len, bool exact)
{
    for (struct mem_rec *r = mem_recs; r; r = r->next)
        if (r->kind == MEM_REC_ALLOC &&
            (exact ? r->start == start && r->len == len
                   : start >= r->start && start - r->start <= r->len &&
                         len <= r->len - (start - r->start)))
            return true;
    return false;
}

bool mem_rec_remove_alloc(uintptr_t start, size_t len)
{
    pthread_mutex_lock(&mem_rec_lock);
    bool found = mem_rec_alloc_holds(start, len, true);
    if (found) /* an allocation's plan spans exactly its pages */
        mem_rec_drop_inside(start, start + len, false);
    pthread_mutex_unlock(&mem_rec_lock);
    return found;
}

bool mem_rec_in_alloc(uintptr_t start, size_t len)
{
    pthread_mutex_lock(&mem_rec_lock);
    bool found = mem_rec_alloc_holds(start, len, false);
    pthread_mutex_unlock(&mem_rec_lock);
    return found;
}

struct mem_rec_hit mem_rec_lookup(uintptr_t addr)
{
    struct mem_rec_hit hit = {-1, 0};
    pthread_mutex_lock(&mem_rec_lock);
    for (struct mem_rec *r = mem_recs; r; r = r->next) {
        uintptr_t lo, hi;
        mem_rec_span(&r->plan, &lo, &hi);
        if (addr >= lo && addr < hi) {
            hit.node = mem_plan_node_of(&r->plan, (addr - lo) / r->plan.page);
            hit.seq = r->seq;
            break;
        }
    }
    pthread_mutex_unlock(&mem_rec_lock);
    return hit;
}

/* Whether r is a range attached to owner. */
static bool owned_by(const struct mem_rec *r, struct mem_owner owner)
{
    return r->kind == MEM_REC_ATTACH && r->owner.team == owner.team && r->owner.slot == owner.slot;
}

/* Whether two plans put every page on the same node. */
static bool plan_same(const struct mem_plan *a, const struct mem_plan *b)
{
    if (a->npages != b->npages || a->first_page != b->first_page)
        return false;
    for (size_t i = 0; i < a->npages;) {
        int na, nb;
        size_t ra = mem_plan_run(a, i, &na), rb = mem_plan_run(b, i, &nb);
        if (na != nb)
            return false;
        i += ra < rb ? ra : rb;
    }
    return true;
}

unsigned mem_rec_follow_domains(struct mem_owner owner, const struct mem_domains *d,
                                struct mem_plan *out, unsigned max)
{
    unsigned n = 0;
    pthread_mutex_lock(&mem_rec_lock);
    for (struct mem_rec *r = mem_recs; r && n < max; r = r->next) {
        if (!owned_by(r, owner))
            continue;
        struct mem_plan p;
        bool ok = d->n == 1 ? mem_plan_node(&p, r->start, r->len, r->plan.page, d->node[0])
                            : mem_plan_bloc(&p, r->start, r->len, r->plan.page, d->n, d->node,
                                            d->weight);
        if (!ok || plan_same(&p, &r->plan))
            continue;
        r->plan = p;
        r->seq = mem_rec_next_seq();
        out[n++] = p;
    }
    pthread_mutex_unlock(&mem_rec_lock);
    return n;
}

void mem_rec_owner_pages(struct mem_owner owner, size_t *per_node, int max_nodes)
{
    pthread_mutex_lock(&mem_rec_lock);
    for (struct mem_rec *r = mem_recs; r; r = r->next) {
        if (!owned_by(r, owner))
            continue;
        for (size_t i = 0; i < r->plan.npages;) {
            int node;
            size_t run = mem_plan_run(&r->plan, i, &node);
            if (node >= 0 && node < max_nodes)
                per_node[node] += run;
            i += run ? run : 1;
        }
    }
    pthread_mutex_unlock(&mem_rec_lock);
}

void mem_rec_counts(unsigned *records, unsigned *attached)
{
    *records = *attached = 0;
    pthread_mutex_lock(&mem_rec_lock);
    for (struct mem_rec *r = mem_recs; r; r = r->next) {
        ++*records;
        *attached += r->kind == MEM_REC_ATTACH;
    }
    pthread_mutex_unlock(&mem_rec_lock);
}
