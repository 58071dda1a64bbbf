/* child_report.h - runs the test program again as a child that writes an ILAN_REPORT, and reads that report back. */
#ifndef ILAN_TEST_CHILD_REPORT_H
#define ILAN_TEST_CHILD_REPORT_H

#include "check.h"
#include <sys/wait.h>
#include <unistd.h>

/*
 * Runs this program (/proc/self/exe) again with the one argument `arg`
 * (NULL: none), in this environment plus ILAN_REPORT naming a fresh file
 * and the entries of `env` (NULL-terminated; "NAME=value" sets, a bare
 * "NAME" unsets). Checks that the child exited with status 0, naming `what`
 * if not, and returns the report it wrote: static storage, overwritten by
 * the next call. Call it from the parent only, outside parallel regions.
 */
static const char *test_child_report(const char *arg, const char *const *env, const char *what)
{
    char path[] = "/tmp/ilan-test-report-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        setenv("ILAN_REPORT", path, 1);
        for (const char *const *e = env; e && *e; e++) {
            const char *eq = strchr(*e, '=');
            if (!eq) {
                unsetenv(*e);
                continue;
            }
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
            setenv(name, eq + 1, 1);
        }
        execl("/proc/self/exe", "child", arg, (char *)NULL);
        _exit(127);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "%s: the child failed (status 0x%x)", what, status);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "%s: no report at %s", what, path);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    unlink(path);
    return text;
}

#endif
