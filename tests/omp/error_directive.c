/* error_directive.c — the error directive at run time prints libgomp's text byte for byte: a blank line, "libgomp: error directive encountered[: message]", and for severity(fatal) "fatal error: " and exit status 1, after the program's stdout is flushed. */
// ilan-test: threads=1,2
#include "check.h"
#include <sys/wait.h>
#include <unistd.h>

/* Runs the directives in a child whose stderr goes to a pipe; returns what
 * it wrote and its exit status. */
static int run_child(char *out, size_t size, int *status)
{
    int fd[2];
    CHECK(pipe(fd) == 0, "pipe");
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        const char *msg = "a message with %s in it";
        #pragma omp error at(execution) severity(warning)
        #pragma omp error at(execution) severity(warning) message(msg)
        #pragma omp parallel num_threads(2)
        #pragma omp masked
        {
            #pragma omp error at(execution) severity(warning) message("from a region")
        }
        #pragma omp error at(execution) severity(fatal) message("the end")
        _exit(0); /* not reached */
    }
    close(fd[1]);
    size_t used = 0;
    ssize_t got;
    while (used + 1 < size && (got = read(fd[0], out + used, size - 1 - used)) > 0)
        used += (size_t)got;
    out[used] = '\0';
    close(fd[0]);
    CHECK(waitpid(pid, status, 0) == pid, "waitpid");
    return (int)used;
}

int main(void)
{
    char out[1024];
    int status;
    run_child(out, sizeof out, &status);
    const char *want = "\nlibgomp: error directive encountered\n"
                       "\nlibgomp: error directive encountered: a message with %s in it\n"
                       "\nlibgomp: error directive encountered: from a region\n"
                       "\nlibgomp: fatal error: error directive encountered: the end\n";
    CHECK(strcmp(out, want) == 0, "stderr was:\n%s", out);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "exit status %d", status);
    return 0;
}
