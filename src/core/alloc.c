/* alloc.c — OpenMP allocators: user allocators with their traits (alignment, pool size, fallback, pinned, partition), blocks that remember their allocator, realloc within a pool. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/omp_types.h"
#include "core/alloc.h"
#include "base/fatal.h"
#include "core/locality.h"
#include "core/thread.h"
#include "mem/alloc.h"
#include "mem/place.h"
#include "os/linux/memory.h"

/*
 * Design. Every memspace is ordinary process memory (malloc), as in
 * libgomp 12; a user allocator is a heap `struct allocator` whose address is
 * its handle (the predefined handles are the small numbers 1..8, so the two
 * never collide). Every block starts with a `struct block_header` just below
 * the pointer handed out; it records the malloc'd base, the requested size
 * and the allocator, so that omp_free and omp_realloc work without being told
 * the allocator (omp_null_allocator). pool_size is enforced with an atomic
 * byte counter per user allocator, charged with the requested sizes.
 * The partition trait other than `environment` gives each block pages of
 * its own, mapped and placed by the memory engine (mem/alloc.c): nearest on
 * the allocating thread's node, blocked as a bloc distribution over the
 * current region's locality domains, interleaved page by page over them;
 * when that placement fails the block fails and the fallback trait applies.
 */

#define ALLOC_MAX_PREDEFINED ((uintptr_t)omp_thread_mem_alloc)

/* Natural alignment of an omp_alloc result (what malloc guarantees). */
#define ALLOC_MIN_ALIGN 16u

/* Longest chain of allocator_fb fallbacks followed before giving up (the
 * chain can be circular). */
#define ALLOC_MAX_FALLBACKS 16

/* A user-defined allocator (omp_init_allocator). Immutable after creation
 * except for `used`. */
struct allocator {
    omp_memspace_handle_t memspace; /* where memory comes from (all: malloc) */
    size_t alignment;               /* minimum alignment of every block (power of 2) */
    uintptr_t pool_size;            /* bytes it may hand out at once; UINTPTR_MAX: unlimited */
    _Atomic uintptr_t used;         /* bytes currently handed out (when pool_size is finite) */
    uintptr_t fallback;             /* omp_atv_*_fb */
    uintptr_t fb_data;              /* allocator used by allocator_fb */
    bool pinned;                    /* blocks are locked in RAM (mlock) */
    uintptr_t sync_hint;            /* trait value, recorded only */
    uintptr_t access;               /* trait value, recorded only */
    uintptr_t partition;            /* omp_atv_environment (first touch), nearest, blocked or
                                       interleaved */
};

/* Precedes every block handed out, immediately below the returned pointer. */
struct block_header {
    void *base;           /* what malloc returned (free this) */
    size_t size;          /* bytes the caller asked for */
    uintptr_t allocator;  /* allocator that made the block (never omp_null_allocator) */
    size_t pinned_bytes;  /* bytes from base that were mlock'ed, 0 if none */
    size_t mapped_bytes;  /* base is a placed mapping of this size (mem_alloc), 0: malloc'ed */
    size_t pad;           /* keeps the header a multiple of ALLOC_MIN_ALIGN */
};

_Static_assert(sizeof(struct block_header) % ALLOC_MIN_ALIGN == 0,
               "the header keeps malloc's alignment");

static inline struct block_header *alloc_header(void *ptr)
{
    return (struct block_header *)ptr - 1;
}

static inline struct allocator *alloc_user(uintptr_t a)
{
    return a > ALLOC_MAX_PREDEFINED ? (struct allocator *)a : NULL;
}

static inline bool alloc_pow2(uintptr_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

/* ---- creating and destroying allocators ------------------------------- */

/* Validates one trait into *a. False when the key or value is invalid. */
static bool alloc_apply_trait(struct allocator *a, omp_alloctrait_t t)
{
    uintptr_t v = t.value;
    switch (t.key) {
    case omp_atk_sync_hint:
        if (v == omp_atv_default)
            v = omp_atv_contended;
        if (v != omp_atv_contended && v != omp_atv_uncontended && v != omp_atv_serialized &&
            v != omp_atv_private)
            return false;
        a->sync_hint = v;
        return true;
    case omp_atk_alignment:
        if (v == omp_atv_default)
            v = 1;
        if (!alloc_pow2(v))
            return false;
        a->alignment = v;
        return true;
    case omp_atk_access:
        if (v == omp_atv_default)
            v = omp_atv_all;
        if (v != omp_atv_all && v != omp_atv_cgroup && v != omp_atv_pteam && v != omp_atv_thread)
            return false;
        a->access = v;
        return true;
    case omp_atk_pool_size:
        a->pool_size = v; /* omp_atv_default is UINTPTR_MAX: unlimited */
        return true;
    case omp_atk_fallback:
        if (v == omp_atv_default)
            v = omp_atv_default_mem_fb;
        if (v != omp_atv_default_mem_fb && v != omp_atv_null_fb && v != omp_atv_abort_fb &&
            v != omp_atv_allocator_fb)
            return false;
        a->fallback = v;
        return true;
    case omp_atk_fb_data:
        a->fb_data = v;
        return true;
    case omp_atk_pinned:
        if (v == omp_atv_default)
            v = omp_atv_false;
        if (v != omp_atv_false && v != omp_atv_true)
            return false;
        a->pinned = v == omp_atv_true;
        return true;
    case omp_atk_partition:
        if (v == omp_atv_default)
            v = omp_atv_environment;
        if (v != omp_atv_environment && v != omp_atv_nearest && v != omp_atv_blocked &&
            v != omp_atv_interleaved)
            return false;
        a->partition = v;
        return true;
    }
    return false; /* unknown key */
}

omp_allocator_handle_t alloc_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                            const omp_alloctrait_t traits[])
{
    struct allocator a = {
        .memspace = memspace,
        .alignment = 1,
        .pool_size = UINTPTR_MAX,
        .fallback = omp_atv_default_mem_fb,
        .fb_data = omp_null_allocator,
        .pinned = false,
        .sync_hint = omp_atv_contended,
        .access = omp_atv_all,
        .partition = omp_atv_environment,
    };
    if ((uintptr_t)memspace > omp_low_lat_mem_space)
        return omp_null_allocator;
    /* Like libgomp 12: there is no high-bandwidth memory to give. */
    if (memspace == omp_high_bw_mem_space)
        return omp_null_allocator;
    if (ntraits > 0 && traits == NULL)
        return omp_null_allocator;
    for (int i = 0; i < ntraits; i++)
        if (!alloc_apply_trait(&a, traits[i]))
            return omp_null_allocator;

    struct allocator *h = malloc(sizeof *h);
    if (h == NULL)
        return omp_null_allocator;
    memcpy(h, &a, sizeof *h);
    atomic_init(&h->used, 0);
    return (omp_allocator_handle_t)(uintptr_t)h;
}

void alloc_destroy_allocator(omp_allocator_handle_t allocator)
{
    /* Predefined allocators cannot be destroyed; ignoring them is harmless. */
    free(alloc_user((uintptr_t)allocator));
}

/* ---- allocating ------------------------------------------------------- */

/* Reserves `size` bytes of a's pool. False when the pool would overflow. */
static bool alloc_charge(struct allocator *a, size_t size)
{
    if (a->pool_size == UINTPTR_MAX)
        return true;
    uintptr_t used = atomic_load_explicit(&a->used, memory_order_relaxed), next;
    do {
        if (__builtin_add_overflow(used, size, &next) || next > a->pool_size)
            return false;
    } while (!atomic_compare_exchange_weak_explicit(&a->used, &used, next, memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}

static void alloc_uncharge(struct allocator *a, size_t size)
{
    if (a->pool_size != UINTPTR_MAX)
        atomic_fetch_sub_explicit(&a->used, size, memory_order_relaxed);
}

/* One attempt with one allocator (never omp_null_allocator): NULL on
 * failure, without any fallback. */
static void *alloc_try(size_t alignment, size_t size, uintptr_t allocator)
{
    struct allocator *a = alloc_user(allocator);
    if (a && a->alignment > alignment)
        alignment = a->alignment;
    if (alignment < ALLOC_MIN_ALIGN)
        alignment = ALLOC_MIN_ALIGN;

    size_t total;
    if (__builtin_add_overflow(size, sizeof(struct block_header) + (alignment - ALLOC_MIN_ALIGN),
                               &total))
        return NULL;
    if (a && !alloc_charge(a, size))
        return NULL;
    void *base;
    size_t mapped = 0;
    if (a && a->partition != omp_atv_environment) {
        struct mem_domains d;
        locality_domains(&d);
        enum mem_layout layout = a->partition == omp_atv_nearest   ? MEM_LAYOUT_NEAREST
                                 : a->partition == omp_atv_blocked ? MEM_LAYOUT_BLOC
                                                                   : MEM_LAYOUT_CYCLIC;
        int err;
        base = mem_alloc(total, layout, mem_page(), &d, &err);
        mapped = total;
    } else {
        base = malloc(total);
    }
    if (base == NULL)
        goto fail;
    size_t pinned = 0;
    if (a && a->pinned) {
        if (os_memory_pin(base, total) != 0) {
            if (mapped)
                mem_free(base, mapped);
            else
                free(base);
            goto fail;
        }
        pinned = total;
    }
    uintptr_t p = ((uintptr_t)base + sizeof(struct block_header) + alignment - 1) & ~(uintptr_t)(alignment - 1);
    struct block_header *h = alloc_header((void *)p);
    h->base = base;
    h->size = size;
    h->allocator = allocator;
    h->pinned_bytes = pinned;
    h->mapped_bytes = mapped;
    return (void *)p;
fail:
    if (a)
        alloc_uncharge(a, size);
    return NULL;
}

/* The allocator that omp_null_allocator stands for in the calling task. */
static uintptr_t alloc_resolve(uintptr_t allocator)
{
    if (allocator != omp_null_allocator)
        return allocator;
    allocator = thread_self()->icv.def_allocator;
    return allocator ? allocator : (uintptr_t)omp_default_mem_alloc;
}

void *alloc_aligned(size_t alignment, size_t size, uintptr_t allocator)
{
    if (size == 0 || !alloc_pow2(alignment))
        return NULL;
    allocator = alloc_resolve(allocator);
    for (int hops = 0; hops <= ALLOC_MAX_FALLBACKS; hops++) {
        void *p = alloc_try(alignment, size, allocator);
        if (p)
            return p;
        struct allocator *a = alloc_user(allocator);
        if (a == NULL)
            return NULL; /* predefined allocators fall back to nothing */
        switch (a->fallback) {
        case omp_atv_null_fb:
            return NULL;
        case omp_atv_abort_fb:
            ilan_fatal("out of memory allocating %zu bytes (allocator with abort_fb fallback)",
                       size);
        case omp_atv_allocator_fb:
            allocator = alloc_resolve(a->fb_data);
            break;
        default: /* omp_atv_default_mem_fb */
            allocator = omp_default_mem_alloc;
            break;
        }
    }
    return NULL;
}

void alloc_free(void *ptr)
{
    if (ptr == NULL)
        return;
    struct block_header *h = alloc_header(ptr);
    struct allocator *a = alloc_user(h->allocator);
    if (a)
        alloc_uncharge(a, h->size);
    if (h->pinned_bytes)
        os_memory_unpin(h->base, h->pinned_bytes);
    if (h->mapped_bytes)
        mem_free(h->base, h->mapped_bytes);
    else
        free(h->base);
}

void *alloc_realloc(void *ptr, size_t size, uintptr_t allocator)
{
    if (ptr == NULL)
        return alloc_aligned(1, size, allocator);
    if (size == 0) {
        alloc_free(ptr);
        return NULL;
    }
    struct block_header *old = alloc_header(ptr);
    /* omp_null_allocator: keep the allocator that made the block. */
    uintptr_t target = allocator == omp_null_allocator ? old->allocator : allocator;
    /* Within one pool the old block's bytes count as free for the new one
     * (a block of 3 KiB grows to 3 KiB + 1 in a 4 KiB pool); they are
     * charged back until omp_free returns them. */
    struct allocator *pool = target == old->allocator ? alloc_user(target) : NULL;
    if (pool)
        alloc_uncharge(pool, old->size);
    void *p = alloc_aligned(1, size, target);
    if (pool && pool->pool_size != UINTPTR_MAX)
        atomic_fetch_add_explicit(&pool->used, old->size, memory_order_relaxed);
    if (p == NULL)
        return NULL; /* the old block stays valid, as the spec requires */
    memcpy(p, ptr, old->size < size ? old->size : size);
    alloc_free(ptr);
    return p;
}

