/* affinity_fmt.c — omp_{set,get}_affinity_format, omp_display_affinity, omp_capture_affinity (C and Fortran). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/export.h"
#include "config/icv.h"
#include "core/affinity_fmt.h"
#include "core/team.h"

/* A NULL or empty format means "the affinity-format-var ICV". */
static const char *affinity_pick(const char *format)
{
    return format && *format ? format : icv_global.affinity_format;
}

/* ---- C entry points ---------------------------------------------------- */

/* The ICV has room for 255 characters; a longer format is truncated. */
ILAN_EXPORT void omp_set_affinity_format(const char *format)
{
    if (format == NULL)
        return;
    snprintf(icv_global.affinity_format, sizeof icv_global.affinity_format, "%s", format);
}

ILAN_EXPORT size_t omp_get_affinity_format(char *buffer, size_t size)
{
    size_t len = strlen(icv_global.affinity_format);
    if (buffer && size)
        snprintf(buffer, size, "%s", icv_global.affinity_format);
    return len;
}

/* The calling thread's line in format fmt, printed or returned malloc'ed. */
static void display_line(const char *fmt)
{
    struct affinity_info info;
    team_affinity_fields(&info);
    affinity_print_line(fmt, &info);
}

static char *render_line(const char *fmt, size_t *len)
{
    struct affinity_info info;
    team_affinity_fields(&info);
    return affinity_render_line(fmt, &info, len);
}

ILAN_EXPORT void omp_display_affinity(const char *format)
{
    display_line(affinity_pick(format));
}

ILAN_EXPORT size_t omp_capture_affinity(char *buffer, size_t size, const char *format)
{
    size_t n;
    char *line = render_line(affinity_pick(format), &n);
    if (line == NULL)
        return 0;
    if (buffer && size)
        snprintf(buffer, size, "%s", line);
    free(line);
    return n;
}

/* ---- Fortran entry points ---------------------------------------------- */

/* Fortran strings come with a length and no NUL; trailing blanks are
 * padding. Returns a NUL-terminated malloc'ed copy without them. */
static char *affinity_fstring(const char *s, size_t len)
{
    while (len && s[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

/* Copies a C string into a blank-padded Fortran buffer. */
static void affinity_fcopy(char *buffer, size_t buffer_len, const char *s)
{
    size_t n = strlen(s);
    if (n > buffer_len)
        n = buffer_len;
    memcpy(buffer, s, n);
    memset(buffer + n, ' ', buffer_len - n);
}

ILAN_EXPORT void omp_set_affinity_format_(const char *format, size_t format_len)
{
    char *f = affinity_fstring(format, format_len);
    if (f)
        omp_set_affinity_format(f);
    free(f);
}

ILAN_EXPORT int32_t omp_get_affinity_format_(char *buffer, size_t buffer_len)
{
    affinity_fcopy(buffer, buffer_len, icv_global.affinity_format);
    return (int32_t)strlen(icv_global.affinity_format);
}

ILAN_EXPORT void omp_display_affinity_(const char *format, size_t format_len)
{
    char *f = affinity_fstring(format, format_len);
    display_line(affinity_pick(f));
    free(f);
}

ILAN_EXPORT int32_t omp_capture_affinity_(char *buffer, const char *format, size_t buffer_len,
                                          size_t format_len)
{
    char *f = affinity_fstring(format, format_len);
    size_t n;
    char *line = render_line(affinity_pick(f), &n);
    free(f);
    if (line == NULL)
        return 0;
    affinity_fcopy(buffer, buffer_len, line);
    free(line);
    return (int32_t)n;
}
