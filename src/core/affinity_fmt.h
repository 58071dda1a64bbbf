/* affinity_fmt.h — rendering OpenMP affinity-format strings (OMP_AFFINITY_FORMAT). */
#ifndef ILAN_CORE_AFFINITY_FMT_H
#define ILAN_CORE_AFFINITY_FMT_H

#include <stddef.h>

/* What the fields of an affinity format can show about one thread. */
struct affinity_info {
    int team_num;         /* %t, %{team_num} */
    int num_teams;        /* %T, %{num_teams} */
    int level;            /* %L, %{nesting_level} */
    int thread_num;       /* %n, %{thread_num} */
    int num_threads;      /* %N, %{num_threads} */
    int ancestor_tnum;    /* %a, %{ancestor_tnum}: thread number at level-1, -1 at level 0 */
    long pid;             /* %P, %{process_id} */
    long native_id;       /* %i, %{native_thread_id} */
    const char *host;     /* %H, %{host} */
    const char *affinity; /* %A, %{thread_affinity}: CPU list such as "0-3,8" */
};

/* Expands `fmt` for `info` into buf[0..size-1] (always NUL-terminated when
 * size > 0) and returns the length of the full expansion, as snprintf does.
 * Field syntax: %[0][.][width]x or %[0][.][width]{name}; "." right-justifies,
 * "0" right-justifies with zeros; %% is a percent sign. Unknown fields are
 * copied as written. Pure: no thread state, no system calls. */
size_t affinity_format_render(char *buf, size_t size, const char *fmt,
                              const struct affinity_info *info);

/* Writes cpus[0..n-1] (increasing) as ranges, "0-3,8", into buf. */
void affinity_cpu_list(char *buf, size_t size, const int *cpus, int n);

/* Renders format fmt for the calling thread: `in` holds its place in the
 * teams (team_affinity_fields); the OS fields (process, thread id, host,
 * CPU list) are filled here. Returns a malloc'ed line (NULL only when out
 * of memory); *len receives its length. */
char *affinity_render_line(const char *fmt, struct affinity_info *in, size_t *len);

/* Prints that line on stderr. */
void affinity_print_line(const char *fmt, struct affinity_info *in);

#endif
