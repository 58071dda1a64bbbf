/* omp_types.h — the public OpenMP types of gcc 12's omp.h, ABI-identical, for the entry points. */
#ifndef ILAN_BASE_OMP_TYPES_H
#define ILAN_BASE_OMP_TYPES_H

/*
 * The runtime cannot include gcc's <omp.h> without -fopenmp, so the types
 * the entry points take are restated here from the OpenMP 5.1 spec with the
 * sizes, alignments and enumerator values gcc 12's omp.h gives them on
 * Linux x86_64/aarch64. The lock types are opaque byte arrays there; their
 * real layout is private to abi/lock.c, which checks it fits. Only src/abi/
 * includes this header.
 */

#include <stddef.h>
#include <stdint.h>

/* omp_lock_t: 4 bytes, 4-aligned (a futex word). */
typedef struct {
    unsigned char _x[4] __attribute__((__aligned__(4))); /* opaque, see abi/lock.c */
} omp_lock_t;

/* omp_nest_lock_t: 8 + sizeof(void *) bytes, pointer-aligned. */
typedef struct {
    unsigned char _x[8 + sizeof(void *)] __attribute__((__aligned__(sizeof(void *)))); /* opaque */
} omp_nest_lock_t;

typedef enum omp_sched_t {
    omp_sched_static = 1,
    omp_sched_dynamic = 2,
    omp_sched_guided = 3,
    omp_sched_auto = 4,
    omp_sched_monotonic = 0x80000000U
} omp_sched_t;

typedef enum omp_proc_bind_t {
    omp_proc_bind_false = 0,
    omp_proc_bind_true = 1,
    omp_proc_bind_primary = 2,
    omp_proc_bind_master = omp_proc_bind_primary,
    omp_proc_bind_close = 3,
    omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
    omp_sync_hint_none = 0,
    omp_sync_hint_uncontended = 1,
    omp_sync_hint_contended = 2,
    omp_sync_hint_nonspeculative = 4,
    omp_sync_hint_speculative = 8
} omp_sync_hint_t;

typedef omp_sync_hint_t omp_lock_hint_t;

/* omp_depend_t: two pointers, pointer-aligned. */
typedef struct __attribute__((__aligned__(sizeof(void *)))) omp_depend_t {
    char __omp_depend_t__[2 * sizeof(void *)]; /* opaque */
} omp_depend_t;

typedef enum omp_pause_resource_t {
    omp_pause_soft = 1,
    omp_pause_hard = 2
} omp_pause_resource_t;

typedef uintptr_t omp_uintptr_t;

/* The handle enums are pointer-sized in gcc's omp.h (a __UINTPTR_MAX__
 * enumerator forces it); the same trick keeps the size here. */
typedef enum omp_memspace_handle_t {
    omp_default_mem_space = 0,
    omp_large_cap_mem_space = 1,
    omp_const_mem_space = 2,
    omp_high_bw_mem_space = 3,
    omp_low_lat_mem_space = 4,
    __omp_memspace_handle_t_max__ = __UINTPTR_MAX__
} omp_memspace_handle_t;

typedef enum omp_allocator_handle_t {
    omp_null_allocator = 0,
    omp_default_mem_alloc = 1,
    omp_large_cap_mem_alloc = 2,
    omp_const_mem_alloc = 3,
    omp_high_bw_mem_alloc = 4,
    omp_low_lat_mem_alloc = 5,
    omp_cgroup_mem_alloc = 6,
    omp_pteam_mem_alloc = 7,
    omp_thread_mem_alloc = 8,
    __omp_allocator_handle_t_max__ = __UINTPTR_MAX__
} omp_allocator_handle_t;

typedef enum omp_alloctrait_key_t {
    omp_atk_sync_hint = 1,
    omp_atk_alignment = 2,
    omp_atk_access = 3,
    omp_atk_pool_size = 4,
    omp_atk_fallback = 5,
    omp_atk_fb_data = 6,
    omp_atk_pinned = 7,
    omp_atk_partition = 8
} omp_alloctrait_key_t;

typedef enum omp_alloctrait_value_t {
    omp_atv_default = (uintptr_t)-1,
    omp_atv_false = 0,
    omp_atv_true = 1,
    omp_atv_contended = 3,
    omp_atv_uncontended = 4,
    omp_atv_serialized = 5,
    omp_atv_sequential = omp_atv_serialized,
    omp_atv_private = 6,
    omp_atv_all = 7,
    omp_atv_thread = 8,
    omp_atv_pteam = 9,
    omp_atv_cgroup = 10,
    omp_atv_default_mem_fb = 11,
    omp_atv_null_fb = 12,
    omp_atv_abort_fb = 13,
    omp_atv_allocator_fb = 14,
    omp_atv_environment = 15,
    omp_atv_nearest = 16,
    omp_atv_blocked = 17,
    omp_atv_interleaved = 18
} omp_alloctrait_value_t;

typedef struct omp_alloctrait_t {
    omp_alloctrait_key_t key; /* which trait */
    omp_uintptr_t value;      /* its value (an omp_alloctrait_value_t or a number) */
} omp_alloctrait_t;

typedef enum omp_event_handle_t {
    __omp_event_handle_t_max__ = __UINTPTR_MAX__
} omp_event_handle_t;

_Static_assert(sizeof(omp_lock_t) == 4 && _Alignof(omp_lock_t) == 4, "gcc 12 omp_lock_t");
_Static_assert(sizeof(omp_nest_lock_t) == 8 + sizeof(void *), "gcc 12 omp_nest_lock_t");
_Static_assert(sizeof(omp_allocator_handle_t) == sizeof(void *), "pointer-sized handles");
_Static_assert(sizeof(omp_alloctrait_t) == 2 * sizeof(void *), "gcc 12 omp_alloctrait_t");

#endif
