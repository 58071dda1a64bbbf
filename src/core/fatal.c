/* fatal.c — warnings and fatal errors on stderr. */
#include "core/fatal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "tunables.h"

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

void ilan_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
    fflush(stdout);
    exit(1);
}

void ilan_unsupported(const char *construct)
{
    ilan_fatal("%s is not supported by this build of ilan (version %s); "
               "run this program on GNU libgomp instead",
               construct, ILAN_VERSION_STRING);
}
