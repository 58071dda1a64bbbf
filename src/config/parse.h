/* parse.h — pure parsers of the OMP_* / GOMP_* / ILAN_* environment syntax (no getenv, no globals, no output). */
#ifndef ILAN_CONFIG_PARSE_H
#define ILAN_CONFIG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Every parser takes the variable's text and returns false when it is not
 * valid, leaving its outputs untouched; on success it fills them. Leading and
 * trailing white space is allowed everywhere, keywords are case-insensitive
 * (as in libgomp), numbers are decimal with an optional '+' and never a '-'
 * unless said otherwise.
 */

/* "true" or "false". */
bool parse_bool(const char *text, bool *out);

/* One of names[0..count-1] (case-insensitive, surrounding blanks allowed):
 * *out receives its index. */
bool parse_keyword(const char *text, const char *const *names, int count, int *out);

/* An unsigned decimal integer in [min, max]. */
bool parse_ulong(const char *text, unsigned long min, unsigned long max, unsigned long *out);

/* A probability: a decimal number in [0, 1] ("1", "0.5", ".03"; no
 * exponent, no sign). */
bool parse_probability(const char *text, double *out);

/* A comma-separated list of integers in [1, max] (OMP_NUM_THREADS: "4,3,2").
 * Stores at most `capacity` items (the rest are validated, then dropped) and
 * their number in *count (>= 1). */
bool parse_unsigned_list(const char *text, unsigned max, unsigned *values, unsigned capacity,
                         unsigned *count);

/* OMP_SCHEDULE: "[modifier:]kind[,chunk]", modifier monotonic|nonmonotonic,
 * kind static|dynamic|guided|auto, chunk an int >= 0. *kind is an enum
 * icv_sched value, carrying ICV_SCHED_MONOTONIC for "monotonic:" and for
 * static without a modifier (libgomp does the same). Without a chunk, *chunk
 * is 0 for static and 1 otherwise; a chunk of 0 becomes 1 except for static. */
bool parse_schedule(const char *text, unsigned *kind, long *chunk);
/* ilan's kinds too: adaptive, static_steal (libomp's name: adaptive
 * without locality), fac2, tss and af (no "monotonic:" for the first two).
 * parse_schedule_name gives a kind's name ("?" when unknown). */
const char *parse_schedule_name(int kind);

/* OMP_STACKSIZE: "size[unit]", unit B, K, M or G (powers of 1024, default
 * K). *bytes receives the size in bytes; an overflow is invalid. */
bool parse_stacksize(const char *text, unsigned long *bytes);

/* OMP_WAIT_POLICY: "active" (1) or "passive" (0). */
bool parse_wait_policy(const char *text, int *policy);

/* OMP_PROC_BIND: "false", "true", or a list of primary|master|close|spread
 * (false and true only as a single item). Values are enum icv_bind; at most
 * `capacity` items are stored, their number in *count (>= 1). */
bool parse_proc_bind(const char *text, unsigned *values, unsigned capacity, unsigned *count);

/* OMP_TARGET_OFFLOAD: "default" (0), "disabled" (1) or "mandatory" (2). */
bool parse_target_offload(const char *text, int *out);

/* OMP_DISPLAY_ENV: "false" (0), "true" (1) or "verbose" (2). */
bool parse_display_env(const char *text, int *out);

/* GOMP_SPINCOUNT / ILAN_SPIN_COUNT: "infinite", "infinity" (UINT64_MAX), or
 * a number with an optional k, M, G or T suffix (powers of 1000; a product
 * that overflows saturates at UINT64_MAX). */
bool parse_spincount(const char *text, unsigned long long *out);

/* OMP_ALLOCATOR: one of the predefined allocator names of OpenMP 5.0
 * (omp_default_mem_alloc ... omp_thread_mem_alloc, the only form gcc 12
 * accepts); *out is its omp_allocator_handle_t value (1..8). */
bool parse_allocator(const char *text, uintptr_t *out);

/* OMP_ALLOCATOR in OpenMP 5.2's other form, a memory space with traits:
 * `omp_default_mem_space:partition=blocked` (memspace 0..4 into *memspace,
 * the partition value omp_atv_environment/nearest/blocked/interleaved into
 * *partition; without traits, environment). The partition trait is the
 * only one accepted. False when malformed. */
bool parse_allocator_space(const char *text, uintptr_t *memspace, uintptr_t *partition);

/* The name of a predefined allocator handle (1..8), or NULL. */
const char *parse_allocator_name(uintptr_t handle);

/* A list of places, each a set of CPU numbers: place i holds
 * cpus[first[i] .. first[i+1]), sorted, without duplicates, never empty.
 * An empty list is {0, NULL, NULL}; free with place_list_free. */
struct place_list {
    unsigned n;      /* places */
    unsigned *first; /* n + 1 offsets into cpus */
    int *cpus;       /* the CPU numbers of all places, place after place */
};

/* Kinds of OMP_PLACES values: an explicit list or an abstract name. */
enum places_kind {
    PLACES_EXPLICIT = 0,
    PLACES_THREADS = 1,
    PLACES_CORES = 2,
    PLACES_LL_CACHES = 3,
    PLACES_NUMA_DOMAINS = 4,
    PLACES_SOCKETS = 5,
};

/* OMP_PLACES syntax check only: an abstract name threads|cores|ll_caches|
 * numa_domains|sockets with an optional "(n)", n >= 1, or an explicit list
 * of places "{0,1}", "{0:4}", "{0:4:2}", "{0:4}:3:8", "!{...}", "5". */
bool parse_places_syntax(const char *text);

/* OMP_PLACES (OpenMP 5.1): *kind receives an enum places_kind. For an
 * abstract name, *count is the "(n)" (0 when absent) and *out is emptied.
 * For an explicit list, *out receives the places with the CPU numbers as
 * written (no machine involved): "{0:4}:3:8" is {0,1,2,3},{8,..,11},
 * {16,..,19}; "{0:4:2}" is {0,2,4,6}; "!n" inside braces removes CPU n from
 * the place read so far; "!place" at the top removes the identical places
 * listed before it; a bare "5" is {5}. Invalid: bad syntax, a negative or
 * huge CPU number, an empty place, or no place left. The caller frees *out. */
bool parse_places(const char *text, int *kind, unsigned long *count, struct place_list *out);

/* GOMP_CPU_AFFINITY (libgomp's binding list): CPU numbers and ranges
 * "lo-hi" or "lo-hi:stride", separated by spaces and/or a comma, e.g.
 * "0 3 1-2 4-15:2". Each CPU, in the order given (repeats kept), becomes a
 * place of its own in *out. Invalid: anything else, hi < lo, stride 0, an
 * empty list. The caller frees *out. */
bool parse_cpu_affinity(const char *text, struct place_list *out);

/* ILAN_REPORT's file name: writes `pattern` to out[0..size-1] with "%p"
 * replaced by pid, "%r" by rank and "%%" by "%". False when the result does
 * not fit, or the pattern holds another "%" sequence or ends in "%". */
/* A sampling rate "1/N" (N >= 1: one in N), "all" (1) or "none"/"0" (0)
 * into *every. */
bool parse_sampling(const char *text, unsigned *every);

bool parse_file_pattern(const char *pattern, long pid, long rank, char *out, size_t size);

/* Frees a place list and leaves it empty. */
void place_list_free(struct place_list *l);

#endif
