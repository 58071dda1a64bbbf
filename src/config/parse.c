/* parse.c — pure parsers of the OMP_* / GOMP_* / ILAN_* environment syntax. */
#include "config/parse.h"
#include "base/omp_types.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "config/icv.h"

/* ---- lexical helpers: each takes a cursor and advances it on success ---- */

static const char *skip_spaces(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* True when only white space is left. */
static bool at_end(const char *s)
{
    return *skip_spaces(s) == '\0';
}

/* Matches `word` case-insensitively at *s (after white space); on success
 * moves *s past it. A longer identifier ("falsey") does not match. */
static bool take_word(const char **s, const char *word)
{
    const char *p = skip_spaces(*s);
    size_t n = 0;
    while (word[n])
        n++;
    if (strncasecmp(p, word, n) != 0 || isalnum((unsigned char)p[n]) || p[n] == '_')
        return false;
    *s = p + n;
    return true;
}

/* Matches the character c at *s (after white space). */
static bool take_char(const char **s, char c)
{
    const char *p = skip_spaces(*s);
    if (*p != c)
        return false;
    *s = p + 1;
    return true;
}

/* Reads an unsigned decimal number (optional '+') at *s; fails on no
 * digits or overflow. */
static bool take_ulong(const char **s, unsigned long *out)
{
    const char *p = skip_spaces(*s);
    if (*p == '+')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    unsigned long v = 0;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (ULONG_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    *s = p;
    return true;
}

/* Reads a signed decimal number (optional sign) whose magnitude fits a long. */
static bool take_long(const char **s, long *out)
{
    const char *p = skip_spaces(*s);
    bool neg = *p == '-';
    if (neg)
        p++;
    else if (*p == '+')
        p++;
    if (*p == '+' || *p == '-')
        return false;
    unsigned long mag;
    if (!take_ulong(&p, &mag) || mag > (unsigned long)LONG_MAX)
        return false;
    *out = neg ? -(long)mag : (long)mag;
    *s = p;
    return true;
}

/* Matches one of names[0..n) as a whole word; returns its index or -1. */
static int take_one_of(const char **s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (take_word(s, names[i]))
            return i;
    return -1;
}

/* ---- simple values ------------------------------------------------------ */

bool parse_bool(const char *text, bool *out)
{
    static const char *const names[] = {"false", "true"};
    int i = take_one_of(&text, names, 2);
    if (i < 0 || !at_end(text))
        return false;
    *out = i == 1;
    return true;
}

bool parse_ulong(const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
    unsigned long v;
    if (!take_ulong(&text, &v) || !at_end(text) || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool parse_probability(const char *text, double *out)
{
    const char *p = skip_spaces(text);
    double v = 0, scale = 1;
    bool digits = false;
    for (; isdigit((unsigned char)*p); p++, digits = true)
        v = v * 10 + (*p - '0');
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, digits = true)
            v += (*p - '0') * (scale /= 10);
    if (!digits || !at_end(p) || v > 1)
        return false;
    *out = v;
    return true;
}

bool parse_keyword(const char *text, const char *const *names, int count, int *out)
{
    int i = take_one_of(&text, names, count);
    if (i < 0 || !at_end(text))
        return false;
    *out = i;
    return true;
}

bool parse_sampling(const char *text, unsigned *every)
{
    unsigned long n;
    if (strcmp(text, "all") == 0 || strcmp(text, "1") == 0) {
        *every = 1;
        return true;
    }
    if (strcmp(text, "none") == 0 || strcmp(text, "0") == 0) {
        *every = 0;
        return true;
    }
    if (strncmp(text, "1/", 2) != 0 || !parse_ulong(text + 2, 1, 1u << 30, &n))
        return false;
    *every = (unsigned)n;
    return true;
}

bool parse_wait_policy(const char *text, int *policy)
{
    static const char *const names[] = {"passive", "active"};
    return parse_keyword(text, names, 2, policy);
}

bool parse_target_offload(const char *text, int *out)
{
    static const char *const names[] = {"default", "disabled", "mandatory"};
    return parse_keyword(text, names, 3, out);
}

bool parse_display_env(const char *text, int *out)
{
    static const char *const names[] = {"false", "true", "verbose"};
    return parse_keyword(text, names, 3, out);
}

/* ---- lists -------------------------------------------------------------- */

bool parse_unsigned_list(const char *text, unsigned max, unsigned *values, unsigned capacity,
                         unsigned *count)
{
    unsigned tmp[ILAN_MAX_NEST_LIST];
    unsigned n = 0;
    if (capacity > ILAN_MAX_NEST_LIST)
        capacity = ILAN_MAX_NEST_LIST;
    do {
        unsigned long v;
        if (!take_ulong(&text, &v) || v < 1 || v > max)
            return false;
        if (n < capacity)
            tmp[n++] = (unsigned)v;
    } while (take_char(&text, ','));
    if (!at_end(text) || n == 0)
        return false;
    for (unsigned i = 0; i < n; i++)
        values[i] = tmp[i];
    *count = n;
    return true;
}

bool parse_proc_bind(const char *text, unsigned *values, unsigned capacity, unsigned *count)
{
    /* Index = enum icv_bind, except "master" (index 5) which is primary. */
    static const char *const names[] = {"false", "true", "primary", "close", "spread", "master"};
    unsigned tmp[ILAN_MAX_NEST_LIST];
    unsigned n = 0, items = 0;
    if (capacity > ILAN_MAX_NEST_LIST)
        capacity = ILAN_MAX_NEST_LIST;
    do {
        int i = take_one_of(&text, names, 6);
        if (i < 0)
            return false;
        unsigned v = i == 5 ? ICV_BIND_PRIMARY : (unsigned)i;
        if ((v == ICV_BIND_FALSE || v == ICV_BIND_TRUE) && items > 0)
            return false;
        if (n < capacity)
            tmp[n++] = v;
        items++;
    } while (take_char(&text, ','));
    if (!at_end(text) || n == 0)
        return false;
    if (items > 1 && (tmp[0] == ICV_BIND_FALSE || tmp[0] == ICV_BIND_TRUE))
        return false;
    for (unsigned i = 0; i < n; i++)
        values[i] = tmp[i];
    *count = n;
    return true;
}

/* ---- schedule ----------------------------------------------------------- */

/* Every kind OMP_SCHEDULE names, as parse_schedule matches them (a name
 * that begins with another comes first) and schedule kinds print. */
static const struct {
    const char *name; /* as written in OMP_SCHEDULE (any case) */
    unsigned kind;    /* enum icv_sched */
} sched_names[] = {
    {"static_steal", ICV_SCHED_STATIC_STEAL},
    {"static", ICV_SCHED_STATIC},
    {"dynamic", ICV_SCHED_DYNAMIC},
    {"guided", ICV_SCHED_GUIDED},
    {"auto", ICV_SCHED_AUTO},
    {"adaptive", ICV_SCHED_ADAPTIVE},
    {"fac2", ICV_SCHED_FAC2},
    {"tss", ICV_SCHED_TSS},
    {"af", ICV_SCHED_AF},
};
#define SCHED_NAMES (sizeof sched_names / sizeof sched_names[0])

const char *parse_schedule_name(int kind)
{
    for (unsigned i = 0; i < SCHED_NAMES; i++)
        if (sched_names[i].kind == ((unsigned)kind & ~(unsigned)ICV_SCHED_MONOTONIC))
            return sched_names[i].name;
    return "?";
}

bool parse_schedule(const char *text, unsigned *kind, long *chunk)
{
    static const char *const modifiers[] = {"monotonic", "nonmonotonic"};
    const char *kinds[SCHED_NAMES];
    for (unsigned i = 0; i < SCHED_NAMES; i++)
        kinds[i] = sched_names[i].name;
    int mod = take_one_of(&text, modifiers, 2);
    if (mod >= 0 && !take_char(&text, ':'))
        return false;
    int k = take_one_of(&text, kinds, (int)SCHED_NAMES);
    if (k < 0)
        return false;
    unsigned result = sched_names[k].kind;
    bool is_static = result == ICV_SCHED_STATIC;
    /* adaptive and static_steal hand out iterations out of order: they
     * cannot be monotonic. */
    if (mod == 0 && (result == ICV_SCHED_ADAPTIVE || result == ICV_SCHED_STATIC_STEAL))
        return false;
    if (mod == 0 || (mod < 0 && is_static))
        result |= ICV_SCHED_MONOTONIC;
    unsigned long c = is_static ? 0 : 1;
    if (take_char(&text, ',')) {
        if (!take_ulong(&text, &c) || c > INT_MAX)
            return false;
        if (c == 0 && !is_static)
            c = 1;
    }
    if (!at_end(text))
        return false;
    *kind = result;
    *chunk = (long)c;
    return true;
}

/* ---- sizes and counts ---------------------------------------------------- */

bool parse_stacksize(const char *text, unsigned long *bytes)
{
    unsigned long v;
    unsigned shift = 10; /* the default unit is K */
    if (!take_ulong(&text, &v))
        return false;
    text = skip_spaces(text);
    switch (tolower((unsigned char)*text)) {
    case '\0': break;
    case 'b': shift = 0; text++; break;
    case 'k': shift = 10; text++; break;
    case 'm': shift = 20; text++; break;
    case 'g': shift = 30; text++; break;
    default: return false;
    }
    if (!at_end(text) || ((v << shift) >> shift) != v)
        return false;
    *bytes = v << shift;
    return true;
}

bool parse_spincount(const char *text, unsigned long long *out)
{
    static const char *const infinite[] = {"infinite", "infinity"};
    if (take_one_of(&text, infinite, 2) >= 0) {
        if (!at_end(text))
            return false;
        *out = UINT64_MAX;
        return true;
    }
    unsigned long v;
    unsigned long long mult = 1;
    if (!take_ulong(&text, &v))
        return false;
    text = skip_spaces(text);
    switch (tolower((unsigned char)*text)) {
    case '\0': break;
    case 'k': mult = 1000ull; text++; break;
    case 'm': mult = 1000000ull; text++; break;
    case 'g': mult = 1000000000ull; text++; break;
    case 't': mult = 1000000000000ull; text++; break;
    default: return false;
    }
    if (!at_end(text))
        return false;
    *out = (unsigned long long)v > UINT64_MAX / mult ? UINT64_MAX : (unsigned long long)v * mult;
    return true;
}

/* ---- allocators ----------------------------------------------------------- */

/* Predefined allocators, index + 1 = the omp_allocator_handle_t value. */
static const char *const allocator_names[] = {
    "omp_default_mem_alloc", "omp_large_cap_mem_alloc", "omp_const_mem_alloc",
    "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",   "omp_cgroup_mem_alloc",
    "omp_pteam_mem_alloc",   "omp_thread_mem_alloc",
};
#define ALLOCATOR_COUNT ((int)(sizeof allocator_names / sizeof allocator_names[0]))

bool parse_allocator(const char *text, uintptr_t *out)
{
    int i = take_one_of(&text, allocator_names, ALLOCATOR_COUNT);
    if (i < 0 || !at_end(text))
        return false;
    *out = (uintptr_t)i + 1;
    return true;
}

bool parse_allocator_space(const char *text, uintptr_t *memspace, uintptr_t *partition)
{
    static const char *const spaces[] = {
        "omp_default_mem_space", "omp_large_cap_mem_space", "omp_const_mem_space",
        "omp_high_bw_mem_space", "omp_low_lat_mem_space",
    };
    static const char *const parts[] = {"environment", "nearest", "blocked", "interleaved"};
    int s = take_one_of(&text, spaces, 5);
    if (s < 0)
        return false;
    *memspace = (uintptr_t)s;
    *partition = omp_atv_environment;
    if (at_end(text))
        return true;
    if (!take_char(&text, ':') || !take_word(&text, "partition") || !take_char(&text, '='))
        return false;
    int p = take_one_of(&text, parts, 4);
    if (p < 0 || !at_end(text))
        return false;
    *partition = omp_atv_environment + (uintptr_t)p;
    return true;
}

const char *parse_allocator_name(uintptr_t handle)
{
    if (handle < 1 || handle > (uintptr_t)ALLOCATOR_COUNT)
        return NULL;
    return allocator_names[handle - 1];
}

/* ---- OMP_PLACES ---------------------------------------------------------------- */

#define PLACES_MAX 65536ul     /* most places (and interval length) a list may describe */
#define PLACES_CPU_MAX (1 << 22) /* CPU numbers must stay below this */

/* A growable set of CPU numbers, or a growable list of places. */
struct intvec {
    int *v;       /* items */
    unsigned n;   /* items used */
    unsigned cap; /* items allocated */
};

static bool intvec_push(struct intvec *a, int x)
{
    if (a->n == a->cap) {
        unsigned cap = a->cap ? 2 * a->cap : 16;
        int *grown = realloc(a->v, cap * sizeof *grown);
        if (!grown)
            return false;
        a->v = grown;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return true;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts a set and drops duplicates. */
static void intvec_normalize(struct intvec *a)
{
    if (a->n < 2)
        return;
    qsort(a->v, a->n, sizeof *a->v, int_cmp);
    unsigned w = 1;
    for (unsigned r = 1; r < a->n; r++)
        if (a->v[r] != a->v[w - 1])
            a->v[w++] = a->v[r];
    a->n = w;
}

/* What a place-list parse builds; NULL builder = syntax check only. */
struct places_builder {
    struct intvec cur;   /* the place being read (CPU numbers) */
    struct intvec cpus;  /* CPUs of the places so far, place after place */
    struct intvec first; /* first[i] = index in cpus of place i */
};

/* ":len[:stride]" after a resource or a place; len in [1, PLACES_MAX). */
static bool take_interval(const char **s, unsigned long *len, long *stride)
{
    *len = 1;
    *stride = 1;
    if (!take_char(s, ':'))
        return true;
    if (!take_ulong(s, len) || *len == 0 || *len >= PLACES_MAX)
        return false;
    if (take_char(s, ':') && !take_long(s, stride))
        return false;
    return true;
}

/* A CPU number res + k * stride, if it is one. */
static bool cpu_at(unsigned long res, unsigned long k, long stride, int *out)
{
    long long c = (long long)res + (long long)k * stride;
    if (res >= PLACES_CPU_MAX || c < 0 || c >= PLACES_CPU_MAX)
        return false;
    *out = (int)c;
    return true;
}

/* "{res-interval,...}" where res-interval is "!res" or "res[:len[:stride]]";
 * with a builder, the place's CPUs (in order: an exclusion removes what
 * came before it) end up sorted in b->cur. */
static bool take_resource_list(const char **s, struct places_builder *b)
{
    if (!take_char(s, '{'))
        return false;
    do {
        unsigned long res, len;
        long stride;
        bool negate = take_char(s, '!');
        if (!take_ulong(s, &res))
            return false;
        if (!negate && !take_interval(s, &len, &stride))
            return false;
        if (!b)
            continue;
        if (negate) {
            unsigned w = 0;
            for (unsigned r = 0; r < b->cur.n; r++)
                if ((unsigned long)b->cur.v[r] != res)
                    b->cur.v[w++] = b->cur.v[r];
            b->cur.n = w;
            continue;
        }
        for (unsigned long k = 0; k < len; k++) {
            int c;
            if (!cpu_at(res, k, stride, &c) || !intvec_push(&b->cur, c))
                return false;
        }
    } while (take_char(s, ','));
    if (!take_char(s, '}'))
        return false;
    if (b) {
        intvec_normalize(&b->cur);
        if (b->cur.n == 0)
            return false; /* an empty place */
    }
    return true;
}

/* Place i of the builder: cpus[first[i] .. end). */
static unsigned builder_place_end(const struct places_builder *b, unsigned i)
{
    return i + 1 < b->first.n ? (unsigned)b->first.v[i + 1] : b->cpus.n;
}

/* Removes every place equal to b->cur (the "!place" exclusion). */
static void builder_remove_cur(struct places_builder *b)
{
    struct intvec cpus = b->cpus, first = b->first;
    unsigned wc = 0, wf = 0;
    for (unsigned i = 0; i < first.n; i++) {
        unsigned lo = (unsigned)first.v[i], hi = builder_place_end(b, i);
        bool same = hi - lo == b->cur.n;
        for (unsigned k = 0; same && k < b->cur.n; k++)
            same = cpus.v[lo + k] == b->cur.v[k];
        if (same)
            continue;
        first.v[wf++] = (int)wc;
        for (unsigned k = lo; k < hi; k++)
            cpus.v[wc++] = cpus.v[k];
    }
    b->cpus.n = wc;
    b->first.n = wf;
}

/* One place interval: "!place" or "place[:len[:stride]]", place being a
 * braced resource list or a bare resource number. Adds its places to *n
 * and, with a builder, to the list. */
static bool take_place_interval(const char **s, unsigned long *n, struct places_builder *b)
{
    bool negate = take_char(s, '!');
    const char *p = skip_spaces(*s);
    unsigned long res, len = 1;
    long stride = 1;
    if (b)
        b->cur.n = 0;
    if (*p == '{') {
        if (!take_resource_list(&p, b))
            return false;
    } else if (!take_ulong(&p, &res)) {
        return false;
    } else if (b) {
        int c;
        if (!cpu_at(res, 0, 1, &c) || !intvec_push(&b->cur, c))
            return false;
    }
    if (!negate && !take_interval(&p, &len, &stride))
        return false;
    *n += negate ? 0 : len;
    *s = p;
    if (*n > PLACES_MAX)
        return false;
    if (!b)
        return true;
    if (negate) {
        builder_remove_cur(b);
        return true;
    }
    for (unsigned long k = 0; k < len; k++) {
        if (!intvec_push(&b->first, (int)b->cpus.n))
            return false;
        for (unsigned i = 0; i < b->cur.n; i++) {
            int c;
            if (!cpu_at((unsigned long)b->cur.v[i], k, stride, &c) || !intvec_push(&b->cpus, c))
                return false;
        }
    }
    return true;
}

/* An abstract name with an optional "(count)", count >= 1: its index + 1
 * (enum places_kind), 0 when there is none. */
static int take_abstract_name(const char **s, unsigned long *count)
{
    static const char *const names[] = {"threads", "cores", "ll_caches", "numa_domains",
                                        "sockets"};
    int i = take_one_of(s, names, 5);
    if (i < 0)
        return 0;
    *count = 0;
    if (take_char(s, '(') && (!take_ulong(s, count) || *count == 0 || !take_char(s, ')')))
        return -1;
    return i + 1;
}

/* The grammar, once: with b == NULL it only checks the syntax. */
static bool places_grammar(const char *text, int *kind, unsigned long *count,
                           struct places_builder *b)
{
    const char *s = text;
    int k = take_abstract_name(&s, count);
    if (k != 0) {
        *kind = k;
        return k > 0 && at_end(s);
    }
    *kind = PLACES_EXPLICIT;
    s = text;
    unsigned long places = 0;
    do {
        if (!take_place_interval(&s, &places, b))
            return false;
    } while (take_char(&s, ','));
    return at_end(s);
}

/* Hands a builder's places over to *out (first[] gets its closing entry). */
static bool builder_finish(struct places_builder *b, struct place_list *out)
{
    if (!intvec_push(&b->first, (int)b->cpus.n))
        return false;
    place_list_free(out);
    out->n = b->first.n - 1;
    out->first = (unsigned *)b->first.v;
    out->cpus = b->cpus.v;
    b->first.v = NULL;
    b->cpus.v = NULL;
    return true;
}

bool parse_places_syntax(const char *text)
{
    int kind;
    unsigned long count;
    return places_grammar(text, &kind, &count, NULL);
}

bool parse_places(const char *text, int *kind, unsigned long *count, struct place_list *out)
{
    struct places_builder b = {0};
    int k;
    unsigned long c = 0;
    bool ok = places_grammar(text, &k, &c, &b);
    if (ok && k == PLACES_EXPLICIT && b.first.n == 0)
        ok = false; /* every place excluded */
    if (ok && k == PLACES_EXPLICIT) {
        ok = builder_finish(&b, out);
    } else if (ok) {
        place_list_free(out);
    }
    if (ok) {
        *kind = k;
        *count = c;
    }
    free(b.cur.v);
    free(b.cpus.v);
    free(b.first.v);
    return ok;
}

bool parse_cpu_affinity(const char *text, struct place_list *out)
{
    struct places_builder b = {0};
    const char *s = text;
    bool ok = !at_end(s);
    while (ok && !at_end(s)) {
        unsigned long lo, hi, stride = 1;
        ok = take_ulong(&s, &lo) && lo <= INT_MAX;
        hi = lo;
        if (ok && take_char(&s, '-')) {
            ok = take_ulong(&s, &hi) && hi >= lo && hi <= INT_MAX;
            if (ok && take_char(&s, ':'))
                ok = take_ulong(&s, &stride) && stride > 0;
        }
        for (unsigned long cpu = lo; ok && cpu <= hi; cpu += stride)
            ok = b.first.n < PLACES_MAX && intvec_push(&b.first, (int)b.cpus.n) &&
                 intvec_push(&b.cpus, (int)cpu);
        /* Items are separated by spaces, a comma, or both. */
        const char *after = s;
        s = skip_spaces(s);
        bool separated = s != after; /* a trailing comma is not */
        bool comma = *s == ',';
        if (comma)
            s = skip_spaces(s + 1);
        ok = ok && (comma ? !at_end(s) : separated || at_end(s));
    }
    ok = ok && builder_finish(&b, out);
    free(b.cpus.v);
    free(b.first.v);
    return ok;
}

bool parse_file_pattern(const char *pattern, long pid, long rank, char *out, size_t size)
{
    size_t used = 0;
    for (const char *s = pattern; *s; s++) {
        char number[24];
        const char *piece = number;
        if (*s != '%') {
            number[0] = *s;
            number[1] = '\0';
        } else if (s[1] == 'p' || s[1] == 'r') {
            snprintf(number, sizeof number, "%ld", *++s == 'p' ? pid : rank);
        } else if (s[1] == '%') {
            piece = "%";
            s++;
        } else {
            return false;
        }
        size_t len = strlen(piece);
        if (used + len >= size)
            return false;
        memcpy(out + used, piece, len);
        used += len;
    }
    if (size == 0)
        return false;
    out[used] = '\0';
    return true;
}

void place_list_free(struct place_list *l)
{
    free(l->first);
    free(l->cpus);
    l->n = 0;
    l->first = NULL;
    l->cpus = NULL;
}
