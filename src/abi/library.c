/* library.c — start-up of the runtime: the library constructor, the thread-local state, first use by user threads. */
#include <pthread.h>
#include "abi/export.h"
#include "construct/runtime.h"
#include "config/icv.h"
#include "core/team.h"
#include "core/thread.h"
#include "instr/counters.h"
#include "topo/bind.h"
#include "base/tunables.h"

__thread struct ilan_thread ilan_tls __attribute__((tls_model("initial-exec")));

static pthread_once_t library_once = PTHREAD_ONCE_INIT; /* guards the one runtime_init() */

/* Reads the environment exactly once, whoever asks first: normally the
 * constructor, but another library's constructor may call omp_* earlier. */
static void library_init_once(void)
{
    pthread_once(&library_once, runtime_init);
}

__attribute__((constructor)) static void library_init(void)
{
    library_init_once();
    struct ilan_thread *ts = &ilan_tls;
    if (!ts->ready) {
        ts->icv = icv_global.initial;
        bind_thread_init(&ts->bind);
        ts->ready = true;
        ILAN_THREAD_STARTS(&ts->task_starts);
    }
}

/* A thread the runtime did not create (the initial thread before the
 * constructor ran, or a user pthread) starts as an initial thread of its own
 * contention group, with the initial ICVs, outside every region. */
void thread_init_foreign(struct ilan_thread *ts)
{
    library_init_once();
    ts->icv = icv_global.initial;
    bind_thread_init(&ts->bind);
    ts->ready = true;
    ILAN_THREAD_STARTS(&ts->task_starts);
    team_watch_thread_exit(ts);
}

ILAN_EXPORT const char *ilan_version(void)
{
    return ILAN_VERSION_STRING;
}
