// display_env.c - omp_display_env(0) and omp_display_env(1) print a block
// framed by OPENMP DISPLAY ENVIRONMENT BEGIN/END (to stdout or stderr), with
// _OPENMP and OMP_NUM_THREADS; on ilan it also names ilan.
#include "check.h"
#include <unistd.h>

/* The spec does not name the stream; GNU libgomp and LLVM libomp print to
   stderr.  Both stdout and stderr are captured, each into its own file, and
   the block must be on exactly one of them. */
static char *read_back(FILE *tmp)
{
    long len = lseek(fileno(tmp), 0, SEEK_END);
    char *buf = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
    if (len > 0) CHECK(pread(fileno(tmp), buf, (size_t)len, 0) == len, "read back");
    fclose(tmp);
    return buf;
}

static char *capture(int verbose)
{
    fflush(stdout);
    fflush(stderr);
    FILE *t1 = tmpfile(), *t2 = tmpfile();
    CHECK(t1 != NULL && t2 != NULL, "tmpfile");
    int s1 = dup(1), s2 = dup(2);
    CHECK(s1 >= 0 && s2 >= 0, "dup");
    CHECK(dup2(fileno(t1), 1) == 1 && dup2(fileno(t2), 2) == 2, "dup2");
    omp_display_env(verbose);
    fflush(stdout);
    fflush(stderr);
    dup2(s1, 1);
    dup2(s2, 2);
    close(s1);
    close(s2);
    char *o = read_back(t1), *e = read_back(t2);
    CHECK(*o || *e, "omp_display_env(%d) printed nothing", verbose);
    CHECK(!(*o && *e), "omp_display_env(%d) printed to both stdout and stderr", verbose);
    if (*o) {
        free(e);
        return o;
    }
    free(o);
    return e;
}

static void check_block(const char *out, int verbose)
{
    const char *begin = strstr(out, "OPENMP DISPLAY ENVIRONMENT BEGIN");
    CHECK(begin != NULL, "verbose=%d: no BEGIN line in:\n%s", verbose, out);
    /* the block starts the output (possibly after leading whitespace) */
    for (const char *p = out; p < begin; p++)
        CHECK(*p == ' ' || *p == '\n' || *p == '\t', "verbose=%d: text before BEGIN", verbose);
    const char *end = strstr(begin, "OPENMP DISPLAY ENVIRONMENT END");
    CHECK(end != NULL, "verbose=%d: no END line", verbose);
    for (const char *p = end + strlen("OPENMP DISPLAY ENVIRONMENT END"); *p; p++)
        CHECK(*p == ' ' || *p == '\n' || *p == '\t', "verbose=%d: text after END", verbose);
    const char *v = strstr(begin, "_OPENMP = ");
    CHECK(v != NULL && v < end, "verbose=%d: no '_OPENMP = '", verbose);
    /* _OPENMP value is the yyyymm of the supported spec, as in omp.h */
    CHECK(strtol(v + strlen("_OPENMP = ") + (v[10] == '\'' ? 1 : 0), NULL, 10) >= 201511,
          "verbose=%d: bad _OPENMP value", verbose);
    const char *nt = strstr(begin, "OMP_NUM_THREADS");
    CHECK(nt != NULL && nt < end, "verbose=%d: no OMP_NUM_THREADS", verbose);
    /* the displayed value reflects the environment */
    const char *env = getenv("OMP_NUM_THREADS");
    if (env) {
        char want[64];
        snprintf(want, sizeof want, "'%s'", env);
        const char *line_end = strchr(nt, '\n');
        const char *w = strstr(nt, want);
        CHECK(w != NULL && (!line_end || w < line_end), "verbose=%d: OMP_NUM_THREADS value %s not shown",
              verbose, want);
    }
    if (!ilan_test_any_runtime() || ilan_test_on_ilan())
        CHECK(strstr(out, "ilan") != NULL || strstr(out, "ILAN") != NULL,
              "verbose=%d: output does not mention ilan", verbose);
}

int main(void)
{
    char *a = capture(0);
    check_block(a, 0);
    char *b = capture(1);
    check_block(b, 1);
    /* verbose output contains at least everything the short one does */
    CHECK(strlen(b) >= strlen(a), "verbose output shorter than normal");
    free(a);
    free(b);
    /* still works after a parallel region and from inside one */
    int n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    char *c = capture(0);
    check_block(c, 0);
    free(c);
    return 0;
}
