/* check.h - shared helpers for ilan's self-checking OpenMP tests.
 *
 * Every test includes this header.  A constructor asserts that the program is
 * really running on ilan (the symbol `ilan_version` must be resolvable),
 * unless ILAN_TEST_ANY_RUNTIME=1 is set, which allows validating the tests
 * against GNU libgomp or LLVM libomp.
 *
 * CHECK(cond, fmt, ...) prints file:line, the failed condition and a message
 * to stderr and exits with status 1.  Tests print nothing on success, except
 * possibly one summary line.
 */
#ifndef ILAN_TEST_CHECK_H
#define ILAN_TEST_CHECK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline int ilan_test_any_runtime(void)
{
    const char *v = getenv("ILAN_TEST_ANY_RUNTIME");
    return v != NULL && strcmp(v, "1") == 0;
}

static inline int ilan_test_on_ilan(void)
{
    return dlsym(RTLD_DEFAULT, "ilan_version") != NULL;
}

__attribute__((constructor)) static void ilan_test_assert_runtime(void)
{
    if (ilan_test_any_runtime())
        return;
    if (!ilan_test_on_ilan()) {
        fprintf(stderr,
                "%s: not running on ilan (symbol ilan_version not found); "
                "set ILAN_TEST_ANY_RUNTIME=1 to run on another runtime\n",
                __FILE__);
        exit(1);
    }
}

__attribute__((noreturn, format(printf, 4, 5))) static void
ilan_test_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: CHECK(%s) failed: ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    exit(1);
}

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond))                                                         \
            ilan_test_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);          \
    } while (0)

/* Comparison helpers with automatic messages. */
#define CHECK_EQ_LL(a, b)                                                    \
    do {                                                                     \
        long long ilan_a_ = (long long)(a), ilan_b_ = (long long)(b);        \
        if (ilan_a_ != ilan_b_)                                              \
            ilan_test_fail(__FILE__, __LINE__, #a " == " #b,                 \
                           "%lld != %lld", ilan_a_, ilan_b_);                \
    } while (0)

/* splitmix64's finaliser: the random but reproducible choices of tests that
 * build irregular task trees (a node's state from its parent's). */
static inline uint64_t test_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Busy-waits `us` microseconds by the clock (not a loop count): work of a
 * length the test controls, whatever the CPU's speed. */
static inline void test_spin_us(long us)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

#endif /* ILAN_TEST_CHECK_H */
