/* perf.c — opening and reading a thread's perf_event counters (software ones always, hardware ones on request). */
#include "os/linux/perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* perf_event_open for the calling thread (pid 0, any CPU), in group `group`
 * (-1: a new group). User and kernel time are both counted: a context
 * switch happens in the kernel. */
static int perf_open(unsigned type, unsigned long long config, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.read_format = PERF_FORMAT_GROUP;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* Closes fds[0..n-1]. */
static void close_all(const int *fds, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

int os_perf_open(struct os_perf *p, bool hw)
{
    static const unsigned long long sw[] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
                                            PERF_COUNT_SW_CPU_MIGRATIONS,
                                            PERF_COUNT_SW_PAGE_FAULTS_MIN,
                                            PERF_COUNT_SW_PAGE_FAULTS_MAJ};
    int fds[5];
    p->sw_fd = p->hw_fd = -1;
    for (unsigned i = 0; i < 5; i++) {
        fds[i] = perf_open(PERF_TYPE_SOFTWARE, sw[i], i ? fds[0] : -1);
        if (fds[i] < 0) {
            int err = errno;
            close_all(fds, i);
            return err ? err : EINVAL;
        }
    }
    p->sw_fd = fds[0]; /* the members stay open for the process's life */
    if (hw) {
        int c = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1);
        int n = c >= 0 ? perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, c) : -1;
        if (n >= 0)
            p->hw_fd = c;
        else if (c >= 0)
            close(c);
    }
    return 0;
}

bool os_perf_read(const struct os_perf *p, uint64_t out[OS_PERF_NCOUNTERS])
{
    uint64_t buf[1 + 5];
    memset(out, 0, OS_PERF_NCOUNTERS * sizeof *out);
    if (p->sw_fd < 0 || read(p->sw_fd, buf, sizeof buf) != (ssize_t)sizeof buf || buf[0] != 5)
        return false;
    out[OS_PERF_TASK_CLOCK_NS] = buf[1];
    out[OS_PERF_CONTEXT_SWITCHES] = buf[2];
    out[OS_PERF_CPU_MIGRATIONS] = buf[3];
    out[OS_PERF_MINOR_FAULTS] = buf[4];
    out[OS_PERF_MAJOR_FAULTS] = buf[5];
    uint64_t hwbuf[1 + 2];
    if (p->hw_fd >= 0 && read(p->hw_fd, hwbuf, sizeof hwbuf) == (ssize_t)sizeof hwbuf &&
        hwbuf[0] == 2) {
        out[OS_PERF_CYCLES] = hwbuf[1];
        out[OS_PERF_INSTRUCTIONS] = hwbuf[2];
    }
    return true;
}

const char *os_perf_refusal(int err)
{
    switch (err) {
    case EACCES:
    case EPERM:
        return "not permitted (kernel.perf_event_paranoid, a seccomp filter or the container)";
    case ENOSYS:
        return "perf_event_open is not available in this kernel";
    case ENOENT:
    case EOPNOTSUPP:
        return "these events are not supported here";
    case EMFILE:
    case ENFILE:
        return "too many open files";
    default:
        return strerror(err);
    }
}
