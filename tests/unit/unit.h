/* unit.h — the checks every unit test shares: count, report the first failures, print the tally. */
#ifndef ILAN_TEST_UNIT_H
#define ILAN_TEST_UNIT_H

#include <stdarg.h>
#include <stdio.h>

static unsigned long long unit_passed, unit_failed; /* checks so far */

/* Reports a failed check; only the first 20 are printed (a broken rule can
 * fail millions of generated cases). */
__attribute__((format(printf, 4, 5), unused)) static void
unit_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    if (++unit_failed > 20)
        return;
    fprintf(stderr, "%s:%d: CHECK(%s) failed", file, line, cond);
    if (fmt[0]) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
}

/* CHECK(cond) or CHECK(cond, "format", args...). Without a message the
 * format is "" (hence the warning switched off below). */
#pragma GCC diagnostic ignored "-Wformat-zero-length"
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond)                                                            \
            unit_passed++;                                                   \
        else                                                                 \
            unit_fail(__FILE__, __LINE__, #cond, "" __VA_ARGS__);            \
    } while (0)

/* Prints the tally in the form CI reads ("N passed, M failed") and returns
 * main's exit status. */
__attribute__((unused)) static int unit_report(void)
{
    printf("%llu passed, %llu failed\n", unit_passed, unit_failed);
    return unit_failed != 0;
}

#endif
