/* fatal.c — warnings and fatal errors on stderr. */
#include "base/fatal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/tunables.h"

static void vsay(const char *fmt, va_list ap)
{
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    fprintf(stderr, "ilan: %s\n", line);
}

void ilan_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}

/* libgomp's form: a blank line, then "libgomp: <message>". Programs and
 * scripts that parse libgomp's fatal errors and error-directive output
 * read ilan's the same way. */
static void vsay_as_libgomp(const char *fmt, va_list ap)
{
    fflush(stdout);
    flockfile(stderr); /* one message at a time, however long */
    fputs("\nlibgomp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
}

void ilan_say_as_libgomp(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay_as_libgomp(fmt, ap);
    va_end(ap);
}

void ilan_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay_as_libgomp(fmt, ap);
    va_end(ap);
    exit(EXIT_FAILURE);
}

void ilan_unsupported(const char *construct)
{
    ilan_fatal("%s is not supported by this build of ilan (version %s); "
               "run this program on GNU libgomp instead",
               construct, ILAN_VERSION_STRING);
}
