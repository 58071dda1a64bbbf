/* thread.h — the state every OpenMP thread keeps about itself (thread-local). */
#ifndef ILAN_CORE_THREAD_H
#define ILAN_CORE_THREAD_H

#include <stdbool.h>
#include "config/icv.h"
#include "topo/bind.h"
#include "core/ws_loop.h"

struct team;
struct ws;
struct worker;
struct task;

/*
 * One per OS thread that runs OpenMP code: the initial thread, pool workers,
 * and user threads that call into the runtime. Only its own thread reads or
 * writes it, except that a master saves and restores its own fields around a
 * nested region (see team.c).
 */
struct deque;

struct ilan_thread {
    struct team *team;       /* innermost enclosing team; NULL outside every parallel region */
    unsigned team_id;        /* omp_get_thread_num() in that team */
    struct icv icv;          /* ICVs of the current task (an explicit task's copy is installed
                                while it runs, see task_execute) */
    struct task *task;       /* task running on this thread: the implicit task of its slot in
                                `team`, an explicit task, or NULL (the thread's initial task) */
    struct task *icv_frame;  /* innermost included task running on this thread's stack, whose
                                creator's ICVs are saved in it before the first change
                                (task_icv_will_change); NULL inside other tasks */
    unsigned long task_starts; /* tasks started on this thread, ever (struct task start_seq) */
    struct task *root;       /* innermost tied task it runs that it took from elsewhere than its
                                own deque (stolen, or from a queue), or NULL; new tasks record it */
    struct deque *deque;     /* its slot's task deque in `team` (meaningless when team is NULL):
                                the hot path of task creation reads it */
    unsigned ws_seq;         /* worksharing constructs started in the current team */
    unsigned single_seq;     /* single constructs met in the current team */
    struct ws *ws;           /* slot of the worksharing construct being executed */
    struct loop_thread loop; /* this thread's private state of that loop (core/ws_loop.h) */
    struct worker *worker;   /* pool worker this thread is; NULL for non-pool threads */
    struct team *hot_team;   /* team kept for reuse by this thread's next top-level region */
    struct team *spare_teams; /* teams this thread mastered before, kept for reuse (freed at its
                                 exit or a pause, once their workers are out: pool_wait_run) */
    int teams_num;           /* omp_get_team_num() inside a host teams construct */
    int teams_count;         /* omp_get_num_teams() inside a host teams construct (0: none) */
    struct bind_thread bind; /* its place, partition and OS pinning (topo/bind.h); the pinning
                                survives regions */
    _Atomic unsigned *cgroup_busy; /* busy-thread count of its contention group
                                      (OMP_THREAD_LIMIT); NULL: the process's, team_busy_threads */
    const void *taskloop_data; /* array its next taskloop iterates over bloc-wise
                                  (ilan_taskloop_data), NULL: none registered */
    size_t taskloop_data_size; /* its bytes */
    bool affinity_shown;     /* OMP_DISPLAY_AFFINITY has printed this thread's line */
    bool ready;              /* icv has been initialized */
};

extern __thread struct ilan_thread ilan_tls __attribute__((tls_model("initial-exec")));

/* First-use initialization of a thread that did not come from the pool. */
void thread_init_foreign(struct ilan_thread *ts);

/* The calling thread's state, initialized. Any thread. */
static inline struct ilan_thread *thread_self(void)
{
    struct ilan_thread *ts = &ilan_tls;
    if (__builtin_expect(!ts->ready, 0))
        thread_init_foreign(ts);
    return ts;
}

#endif
