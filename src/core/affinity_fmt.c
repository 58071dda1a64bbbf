/* affinity_fmt.c — rendering OMP_AFFINITY_FORMAT lines (OMP_DISPLAY_AFFINITY, omp_display_affinity): the format language and what the OS says about the calling thread. */
#include "core/affinity_fmt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/linux/affinity.h"

/* ---- pure rendering ---------------------------------------------------- */

/* An output buffer that counts what would have been written. */
struct out {
    char *buf;  /* destination */
    size_t cap; /* its size (room for the NUL included) */
    size_t len; /* characters produced so far (may exceed cap) */
};

static void out_char(struct out *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

static void out_str(struct out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out_char(o, s[i]);
}

/* Emits s padded to `width`: left-justified by default, right-justified
 * with spaces or (zero) with zeros after any sign. */
static void out_field(struct out *o, const char *s, size_t width, int right, int zero)
{
    size_t n = strlen(s);
    size_t pad = width > n ? width - n : 0;
    if (!right) {
        out_str(o, s, n);
        while (pad--)
            out_char(o, ' ');
        return;
    }
    if (zero && s[0] == '-') {
        out_char(o, '-');
        s++, n--;
    }
    while (pad--)
        out_char(o, zero ? '0' : ' ');
    out_str(o, s, n);
}

/* Long names of the fields, with their one-letter equivalents. */
static const struct {
    const char *name; /* %{name} */
    char letter;      /* %x */
} affinity_fields[] = {
    {"team_num", 't'},      {"num_teams", 'T'},        {"nesting_level", 'L'},
    {"thread_num", 'n'},    {"num_threads", 'N'},      {"ancestor_tnum", 'a'},
    {"host", 'H'},          {"process_id", 'P'},       {"native_thread_id", 'i'},
    {"thread_affinity", 'A'},
};

/* Value of field `letter` as text in tmp, or NULL for an unknown letter. */
static const char *affinity_value(char letter, const struct affinity_info *in, char *tmp,
                                  size_t tmpsize)
{
    long v;
    switch (letter) {
    case 't': v = in->team_num; break;
    case 'T': v = in->num_teams; break;
    case 'L': v = in->level; break;
    case 'n': v = in->thread_num; break;
    case 'N': v = in->num_threads; break;
    case 'a': v = in->ancestor_tnum; break;
    case 'P': v = in->pid; break;
    case 'i': v = in->native_id; break;
    case 'H': return in->host ? in->host : "";
    case 'A': return in->affinity ? in->affinity : "";
    default: return NULL;
    }
    snprintf(tmp, tmpsize, "%ld", v);
    return tmp;
}

size_t affinity_format_render(char *buf, size_t size, const char *fmt,
                              const struct affinity_info *info)
{
    struct out o = {buf, size, 0};
    const char *p = fmt;
    while (*p) {
        if (*p != '%') {
            out_char(&o, *p++);
            continue;
        }
        const char *start = p++;
        if (*p == '%') {
            out_char(&o, '%');
            p++;
            continue;
        }
        int zero = 0, right = 0;
        size_t width = 0;
        if (*p == '0') {
            zero = right = 1;
            p++;
        }
        if (*p == '.') {
            right = 1;
            p++;
        }
        for (; *p >= '0' && *p <= '9'; p++)
            if (width < 4096) /* wider fields are not worth the memory */
                width = width * 10 + (size_t)(*p - '0');

        /* The field runs from `start` to `end`; letter 0 when unknown. */
        char letter = 0;
        const char *end;
        if (*p == '{') {
            const char *close = strchr(p, '}');
            end = close ? close + 1 : p + strlen(p);
            size_t n = close ? (size_t)(close - p - 1) : 0;
            for (size_t f = 0; close && f < sizeof affinity_fields / sizeof affinity_fields[0]; f++)
                if (strlen(affinity_fields[f].name) == n &&
                    memcmp(affinity_fields[f].name, p + 1, n) == 0)
                    letter = affinity_fields[f].letter;
        } else {
            letter = *p;
            end = *p ? p + 1 : p;
        }
        char tmp[32];
        const char *val = letter ? affinity_value(letter, info, tmp, sizeof tmp) : NULL;
        p = end;
        if (val == NULL) {
            /* Unknown or malformed field: show it as written. */
            out_str(&o, start, (size_t)(end - start));
            continue;
        }
        /* Numbers take zeros; text is never zero-padded. */
        int numeric = letter != 'H' && letter != 'A';
        out_field(&o, val, width, right, zero && numeric);
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return o.len;
}

void affinity_cpu_list(char *buf, size_t size, const int *cpus, int n)
{
    struct out o = {buf, size, 0};
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
            j++;
        char tmp[32];
        if (j > i)
            snprintf(tmp, sizeof tmp, "%s%d-%d", i ? "," : "", cpus[i], cpus[j]);
        else
            snprintf(tmp, sizeof tmp, "%s%d", i ? "," : "", cpus[i]);
        out_str(&o, tmp, strlen(tmp));
        i = j + 1;
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
}

/* ---- the calling thread ------------------------------------------------ */

/* Storage for the text fields of the calling thread's affinity_info. */
struct affinity_text {
    char host[256];      /* host name */
    char affinity[4096]; /* CPU list */
};

/* Fills the fields the OS knows (process, thread id, host, CPU list). */
static void affinity_collect_os(struct affinity_info *in, struct affinity_text *text)
{
    in->pid = os_process_id();
    in->native_id = os_thread_native_id();
    os_host_name(text->host, sizeof text->host);
    in->host = text->host;

    enum { MAX_LISTED = 1024 };
    int cpus[MAX_LISTED];
    int n = os_thread_cpus(cpus, MAX_LISTED);
    if (n < 0)
        snprintf(text->affinity, sizeof text->affinity, "?");
    else
        affinity_cpu_list(text->affinity, sizeof text->affinity, cpus,
                          n < MAX_LISTED ? n : MAX_LISTED);
    in->affinity = text->affinity;
}

char *affinity_render_line(const char *fmt, struct affinity_info *in, size_t *len)
{
    struct affinity_text *text = malloc(sizeof *text);
    if (text == NULL)
        return NULL;
    affinity_collect_os(in, text);
    size_t n = affinity_format_render(NULL, 0, fmt, in);
    char *line = malloc(n + 2);
    if (line)
        affinity_format_render(line, n + 1, fmt, in);
    free(text);
    *len = n;
    return line;
}

void affinity_print_line(const char *fmt, struct affinity_info *in)
{
    size_t n;
    char *line = affinity_render_line(fmt, in, &n);
    if (line == NULL)
        return;
    line[n] = '\n';
    fwrite(line, 1, n + 1, stderr);
    free(line);
}
