/* next_touch.c — migrate on next touch: armed ranges in a fixed table, the SIGSEGV handler that moves a touched block and unprotects it, chaining to the program's own handler. */
#include "mem/next_touch.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include "mem/place.h"
#include "os/linux/numa.h"
#include "os/linux/thread.h"

/*
 * The handler runs inside whatever the faulting thread was doing, so it
 * takes no lock and allocates nothing: it finds the range in a fixed table
 * (each slot guarded by a count of handlers reading it), claims the block
 * with a CAS (ARMED -> MOVING), moves its pages (move_pages), unprotects
 * them and publishes DONE; a thread that faults on a block another thread
 * is moving waits until it is DONE and retries its access, which then
 * succeeds. Arming and reclaiming happen outside handlers, under nt_lock.
 */

/* A block's state. */
enum { NT_ARMED, NT_MOVING, NT_DONE };

/* One block of an armed range. */
struct nt_block {
    _Atomic int state;  /* NT_ARMED, NT_MOVING or NT_DONE */
    int node;           /* DONE: the node it moved to (model id) */
    unsigned long seq;  /* DONE: when (mem_rec_next_seq), for simulated queries */
};

/* A slot of the table: one armed range, or free. */
struct nt_range {
    _Atomic int live;         /* 1: the fields below describe an armed range; 0: free */
    _Atomic unsigned users;   /* handlers reading this slot now */
    uintptr_t first;          /* its first page */
    size_t npages;            /* pages it covers */
    size_t block_pages;       /* pages per block */
    size_t nblocks;           /* blocks */
    _Atomic size_t left;      /* blocks not moved yet (0: finished, the slot may be reused) */
    struct nt_block *blocks;  /* [nblocks] */
};

static struct nt_range nt_table[NT_MAX_RANGES];
static pthread_mutex_t nt_lock = PTHREAD_MUTEX_INITIALIZER; /* arming and reclaiming */
static struct sigaction nt_old;   /* the program's SIGSEGV action before ours */
static bool nt_installed;         /* our handler is in place (under nt_lock) */
static _Atomic unsigned long nt_ranges, nt_faults, nt_waits, nt_pages, nt_foreign;

/* A fault that is not ours: to the program's previous handler, or death. */
static void nt_foreign_fault(int sig, siginfo_t *si, void *uc)
{
    atomic_fetch_add_explicit(&nt_foreign, 1, memory_order_relaxed);
    if ((nt_old.sa_flags & SA_SIGINFO) && nt_old.sa_sigaction) {
        nt_old.sa_sigaction(sig, si, uc);
    } else if (nt_old.sa_handler != SIG_DFL && nt_old.sa_handler != SIG_IGN) {
        nt_old.sa_handler(sig);
    } else {
        /* Returning re-runs the access, which now kills the process with
         * SIGSEGV as it would have without ilan (an ignored SIGSEGV from a
         * fault kills too). */
        os_segv_default();
    }
}

/* Block b of r was touched by the calling thread: move it or wait for it. */
static void nt_touch(struct nt_range *r, size_t b)
{
    struct nt_block *blk = &r->blocks[b];
    int expect = NT_ARMED;
    if (!atomic_compare_exchange_strong_explicit(&blk->state, &expect, NT_MOVING,
                                                 memory_order_acquire, memory_order_acquire)) {
        atomic_fetch_add_explicit(&nt_waits, 1, memory_order_relaxed);
        while (atomic_load_explicit(&blk->state, memory_order_acquire) != NT_DONE)
            os_yield();
        return;
    }
    size_t lo = b * r->block_pages;
    size_t n = r->npages - lo < r->block_pages ? r->npages - lo : r->block_pages;
    size_t page = mem_page();
    uintptr_t at = r->first + lo * page;
    int node = mem_self_node();
    struct mem_plan p;
    if (mem_plan_node(&p, at, n * page, page, node))
        mem_place_move(&p); /* a page that cannot move stays where it is, accessible */
    blk->node = node;
    blk->seq = mem_rec_next_seq();
    os_mem_protect((void *)at, n * page, true);
    atomic_fetch_add_explicit(&nt_faults, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&nt_pages, n, memory_order_relaxed);
    atomic_store_explicit(&blk->state, NT_DONE, memory_order_release);
    atomic_fetch_sub_explicit(&r->left, 1, memory_order_release);
}

static void nt_handler(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    uintptr_t a = (uintptr_t)si->si_addr;
    size_t page = mem_page();
    if (si->si_code == SEGV_ACCERR) {
        for (int i = 0; i < NT_MAX_RANGES; i++) {
            struct nt_range *r = &nt_table[i];
            if (!atomic_load_explicit(&r->live, memory_order_acquire))
                continue;
            /* seq_cst, as nt_reclaim's store and load: either it sees this
             * user, or this handler sees the slot dead (store-load order). */
            atomic_fetch_add_explicit(&r->users, 1, memory_order_seq_cst);
            bool ours = atomic_load_explicit(&r->live, memory_order_seq_cst) && a >= r->first &&
                        (a - r->first) / page < r->npages;
            if (ours)
                nt_touch(r, (a - r->first) / page / r->block_pages);
            atomic_fetch_sub_explicit(&r->users, 1, memory_order_release);
            if (ours) {
                errno = saved;
                return;
            }
        }
    }
    nt_foreign_fault(sig, si, uc);
    errno = saved;
}

/* Frees slot r's blocks once no handler reads it (nt_lock held). */
static void nt_reclaim(struct nt_range *r)
{
    atomic_store_explicit(&r->live, 0, memory_order_seq_cst); /* see nt_handler */
    while (atomic_load_explicit(&r->users, memory_order_seq_cst))
        os_yield();
    /* Simulated moves outlive the slot as records (runs of one node). */
    if (mem_simulated()) {
        size_t page = mem_page();
        for (size_t b = 0; b < r->nblocks;) {
            size_t e = b + 1;
            if (atomic_load_explicit(&r->blocks[b].state, memory_order_acquire) != NT_DONE) {
                b = e; /* never touched: stays where it was */
                continue;
            }
            while (e < r->nblocks && r->blocks[e].node == r->blocks[b].node &&
                   atomic_load_explicit(&r->blocks[e].state, memory_order_acquire) == NT_DONE)
                e++;
            size_t lo = b * r->block_pages, hi = e * r->block_pages;
            if (hi > r->npages)
                hi = r->npages;
            struct mem_plan p;
            if (mem_plan_node(&p, r->first + lo * page, (hi - lo) * page, page, r->blocks[b].node))
                mem_rec_add(MEM_REC_PLACED, p.first_page, (hi - lo) * page, &p, (struct mem_owner){NULL, 0});
            b = e;
        }
    }
    free(r->blocks);
    r->blocks = NULL;
}

int nt_arm(void *addr, size_t size, size_t block_pages)
{
    size_t page = mem_page();
    uintptr_t first;
    size_t npages;
    if (!addr || size == 0 || block_pages == 0 ||
        !mem_plan_pages((uintptr_t)addr, size, page, &first, &npages))
        return EINVAL;
    int rc = 0;
    (void)mem_simulated(); /* builds the topology now: the handler asks, and may not build it */
    pthread_mutex_lock(&nt_lock);
    if (!nt_installed) {
        rc = os_segv_install(nt_handler, &nt_old);
        if (rc)
            goto out;
        nt_installed = true;
    }
    struct nt_range *slot = NULL;
    for (int i = 0; i < NT_MAX_RANGES; i++) {
        struct nt_range *r = &nt_table[i];
        if (atomic_load_explicit(&r->live, memory_order_acquire)) {
            bool overlap = first < r->first + r->npages * page && r->first < first + npages * page;
            if (!overlap && atomic_load_explicit(&r->left, memory_order_acquire) > 0)
                continue;
            if (atomic_load_explicit(&r->left, memory_order_acquire) > 0) {
                rc = EBUSY;
                goto out;
            }
            nt_reclaim(r); /* finished: its slot is free again */
        }
        if (!slot && !atomic_load_explicit(&r->live, memory_order_relaxed))
            slot = r;
    }
    if (!slot) {
        rc = ENOSPC;
        goto out;
    }
    size_t nblocks = (npages + block_pages - 1) / block_pages;
    slot->blocks = calloc(nblocks, sizeof *slot->blocks);
    if (!slot->blocks) {
        rc = ENOMEM;
        goto out;
    }
    slot->first = first;
    slot->npages = npages;
    slot->block_pages = block_pages;
    slot->nblocks = nblocks;
    atomic_store_explicit(&slot->left, nblocks, memory_order_relaxed);
    atomic_store_explicit(&slot->live, 1, memory_order_release);
    /* Published before the protection: any fault it causes finds the slot. */
    rc = os_mem_protect((void *)first, npages * page, false);
    if (rc) {
        atomic_store_explicit(&slot->left, 0, memory_order_relaxed);
        nt_reclaim(slot);
        goto out;
    }
    atomic_fetch_add_explicit(&nt_ranges, 1, memory_order_relaxed);
out:
    pthread_mutex_unlock(&nt_lock);
    return rc;
}

void nt_forget(uintptr_t first, size_t len)
{
    size_t page = mem_page();
    pthread_mutex_lock(&nt_lock);
    for (int i = 0; i < NT_MAX_RANGES; i++) {
        struct nt_range *r = &nt_table[i];
        if (atomic_load_explicit(&r->live, memory_order_acquire) && first < r->first + r->npages * page &&
            r->first < first + len) {
            atomic_store_explicit(&r->left, 0, memory_order_relaxed);
            nt_reclaim(r);
        }
    }
    pthread_mutex_unlock(&nt_lock);
}

struct mem_rec_hit nt_lookup(uintptr_t addr)
{
    struct mem_rec_hit hit = {-1, 0};
    size_t page = mem_page();
    pthread_mutex_lock(&nt_lock);
    for (int i = 0; i < NT_MAX_RANGES; i++) {
        struct nt_range *r = &nt_table[i];
        if (!atomic_load_explicit(&r->live, memory_order_acquire) || addr < r->first ||
            (addr - r->first) / page >= r->npages)
            continue;
        struct nt_block *b = &r->blocks[(addr - r->first) / page / r->block_pages];
        if (atomic_load_explicit(&b->state, memory_order_acquire) == NT_DONE && b->seq > hit.seq) {
            hit.node = b->node;
            hit.seq = b->seq;
        }
    }
    pthread_mutex_unlock(&nt_lock);
    return hit;
}

void nt_stats(struct nt_stats *out)
{
    out->ranges = atomic_load_explicit(&nt_ranges, memory_order_relaxed);
    out->faults = atomic_load_explicit(&nt_faults, memory_order_relaxed);
    out->waits = atomic_load_explicit(&nt_waits, memory_order_relaxed);
    out->pages_moved = atomic_load_explicit(&nt_pages, memory_order_relaxed);
    out->foreign = atomic_load_explicit(&nt_foreign, memory_order_relaxed);
}
