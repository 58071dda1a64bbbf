/* tunables.h — every compile-time tunable of the runtime, in one place. */
#ifndef ILAN_BASE_TUNABLES_H
#define ILAN_BASE_TUNABLES_H

/* The release, from the VERSION file at the top of the repository: CMake
 * passes it as -DILAN_VERSION_STRING so that the library and the ilan tool
 * (python/pyproject.toml reads the same file) cannot disagree. */
#ifndef ILAN_VERSION_STRING
#error "ILAN_VERSION_STRING is set by CMakeLists.txt from the VERSION file"
/* Spins at most on a contended lock (runtime mutexes, nest locks) before
 * sleeping on its futex: its holder is usually running and leaves soon. */
#define ILAN_LOCK_SPIN 4096u

#endif

/* Cache line size assumed for padding shared hot fields apart. */
#define ILAN_CACHE_LINE 64

/* Spin iterations before a waiting thread sleeps, when the machine is not
 * oversubscribed and OMP_WAIT_POLICY is unset: libgomp's default, a few hundred
 * microseconds, which rides out the load imbalance of typical loops (a futex
 * wake-up costs ~20 us in a VM).
 * Under ThreadSanitizer every atomic load is ~100 times dearer, so the
 * instrumented build sleeps almost at once. */
#if defined(__SANITIZE_THREAD__)
#define ILAN_SPIN_DEFAULT 200u
#else
#define ILAN_SPIN_DEFAULT 300000u
/* Spins at most on a contended lock (runtime mutexes, nest locks) before
 * sleeping on its futex: its holder is usually running and leaves soon. */
#define ILAN_LOCK_SPIN 4096u

#endif

/* How long a waiter yields its CPU before sleeping when there are more
 * threads than CPUs (sched/wait_policy.c). Long enough to span the gap
 * between back-to-back regions or ordered hand-offs, where a futex
 * wake-up (an IPI in a VM) costs 5-10x a yield; short enough that idle
 * workers stop consuming CPU well within a millisecond. */
#define ILAN_WAIT_YIELD_NS 200000ull

/* A yield that returns after this long was late: the CPU went to a
 * thread that ran that long, not to one of the team's taking its turn,
 * which returns it within tens of microseconds (sched/wait_policy.h). */
#define ILAN_YIELD_LATE_NS 300000ull

/* After a late yield beside other processes' load, waits sleep instead of
 * yielding for this long, doubled after each such yield in a row up to
 * the most: load that ends is seen within the most, and a load that lasts
 * costs one late yield per hold. */
#define ILAN_YIELD_HOLD_NS 2000000ull
#define ILAN_YIELD_HOLD_MAX_NS 64000000ull

/* One yield in this many is timed (two clock reads): beside outside load
 * most yields are late, so a sample finds it within a few yields, and an
 * oversubscribed team alone pays the clock reads on a quarter of its
 * yields only. */
#define ILAN_YIELD_TIMED_EVERY 4u

/* The span over which late yields judge whether other processes keep the
 * process's CPUs busy (core/wait.c): ten of /proc/stat's 10 ms ticks. */
#define ILAN_LOAD_WINDOW_NS 100000000ull

/* How long an oversubscribed waiter spins instead of yielding while no
 * thread of its team that shares its CPU has work (sched/wait_policy.h):
 * a few fork/join cycles. Bounded because what it knows of the others'
 * CPUs may be stale (a thread migrated), or a thread of another team or
 * process may need the CPU; then it yields as before. */
#define ILAN_WAIT_ALONE_NS 20000ull

/* Teams larger than this never ask whether a waiter is alone on its CPU:
 * the question reads one note per thread, every round of the wait (5,000
 * threads spent 12 % of their time there); 64 notes cost well under the
 * yield they may save. */
#define ILAN_WAIT_ALONE_MAX_TEAM 64u

/* Spin iterations under OMP_WAIT_POLICY=active (effectively never sleep;
 * with more threads than CPUs the waiter still yields now and then). */
#define ILAN_SPIN_ACTIVE 0xffffffffu

/* While spinning with more threads than CPUs (a count set by
 * GOMP_SPINCOUNT, or OMP_WAIT_POLICY=active), yield the CPU every this
 * many iterations so that a peer sharing it can run. */
#define ILAN_SPIN_YIELD_EVERY 1024u

/* Pauses a wait spends watching its word alone before it follows the wait
 * plan (core/wait.c): below ILAN_SPIN_YIELD_EVERY, so no yield is skipped. */
#define ILAN_SPIN_QUICK 512u

/* Sleepers a tree wake-up (seq_bump_tree) wakes per hop: the waker wakes
 * this many and each woken thread wakes this many more, so n sleepers are
 * all awake after about log2(n) futex calls in a row instead of one call
 * that wakes them one by one. */
#define ILAN_WAKE_FANOUT 2u

/* Threads each thread of a forming team dispatches before its own work
 * (sched/start_tree.h): the master dispatches this many workers and each
 * of them as many more, so thread creations and wake-ups are spread over
 * the team instead of all made one by one by the master. */
#define ILAN_START_FANOUT 4u

/* The team barrier when ILAN_BARRIER is unset (enum barrier_kind, config/env.h):
 * 0 central, 1 tree. Chosen by measurement (README.md, "The tree barrier"). */
#define ILAN_BARRIER_DEFAULT 1
/* Children a tree barrier's node has at most per locality level, when
 * ILAN_BARRIER_FANIN is unset (sched/barrier_tree.h). */
#define ILAN_BARRIER_FANIN_DEFAULT 4

/* Work-share ring slots per team: how many nowait worksharing constructs a
 * fast thread may run ahead of the slowest one before it waits. */
#define ILAN_WS_RING 8u

/* Default stack size of worker threads when OMP_STACKSIZE is unset: deep
 * recursion in parallel regions must not crash (glibc's default is 8 MiB). */
#define ILAN_DEFAULT_STACKSIZE (16ul << 20)

/* Upper bound on the length of OMP_NUM_THREADS / OMP_PROC_BIND lists. */
#define ILAN_MAX_NEST_LIST 16

/* Default for OMP_MAX_ACTIVE_LEVELS and the supported maximum. */
#define ILAN_SUPPORTED_ACTIVE_LEVELS 255u

/* ---- tasking ---- */

/* A new task is deferred only while its creator's deque holds fewer than
 * this many tasks; past it, it runs at once (task_sched_defer_helps). */
#define ILAN_TASK_SHALLOW 2
/* ...or fewer than this many while some thread of the team waits without
 * finding a task (it takes the oldest, so it gets whole subtrees). */
#define ILAN_TASK_HUNGRY_DEPTH 4
/* Failed rounds of looking for a task before a waiting thread counts as
 * hungry (task_wait_until). */
#define ILAN_TASK_HUNGRY_ROUNDS 8u

/* Initial capacity of a thread's task deque, as a power of two (it grows
 * when a placement or a dependence release pushes past it). */
#define ILAN_TASK_DEQUE_LOG2 9

/* Failed rounds of looking for a task (own deque, last victim, random
 * victims) before an idle thread goes to sleep on the team's work word. */
#define ILAN_TASK_IDLE_ROUNDS 64u

/* An idle round's back-off grows up to 2^this pauses; looks at other
 * threads' deques may be further apart (sched/steal_pace.h). */
#define ILAN_TASK_IDLE_MAX_LEVEL 6u

/* A task taken from another thread that ran at least this long (with the
 * tasks it ran inline) was worth its steal: the thief goes back to looking
 * at once; shorter ones slow its looks down (sched/steal_pace.h). */
#define ILAN_STEAL_WORTH_NS 4000u

/* While pausing between looks, a waiter checks what it waits for every
 * this many pauses (a pause is about 25 ns here). */
#define ILAN_TASK_WATCH_EVERY 8u

/* When threads outnumber CPUs, an idle round yields once instead of
 * pausing; the yield counts as this many pauses towards the steal pace. */
#define ILAN_TASK_YIELD_PAUSES 64u

/* Random victims tried per round, as a multiple of the team size. */
#define ILAN_TASK_STEAL_TRIES 2u
/* ...but at most this many per round (sched/steal.h, steal_tries). */
#define ILAN_TASK_STEAL_TRIES_MAX 64u

/* Load balancing by messages (ILAN_DLB=na-ws|na-rp, core/dlb.c), the
 * defaults of its parameters (seed 002's N_victim, N_steal, T_interval in
 * idle rounds, P_local); each has an ILAN_DLB_* variable. N_steal also caps
 * the tasks a ws thief takes in one steal (half of the victim's deque).
 * N_steal is 1 for every strategy: in a sweep of 1, 8 and 32 over fib,
 * nqueens, sort, health and the 1 M-node tree at 4 and 16 threads, 1 was
 * the fastest or within a few per cent of it for ws, na-ws and na-rp on
 * every kernel, and 32 the slowest (docs/TUNING.md has the table). */
#define ILAN_DLB_VICTIMS_DEFAULT 1u
#define ILAN_DLB_STEAL_DEFAULT 1u
#define ILAN_DLB_INTERVAL_DEFAULT 64u
#define ILAN_DLB_PLOCAL_DEFAULT 1.0

/* Ancestors a task descriptor records (struct task up[]): a waiting tied
 * task may steal a victim's task only when it is at most this many
 * generations above it, which a thief can test before winning the task. */
#define ILAN_TASK_ANCESTORS 8u

/* Roots a thief follows to decide that a task it looks at descends from the
 * task it waits in (task_peek_descends); past them it leaves the task. */
#define ILAN_TASK_ROOT_HOPS 8u

/* Task descriptors are carved in size classes of 256 << c bytes,
 * c < ILAN_TASK_CLASSES; a larger argument block is malloc'd apart. */
#define ILAN_TASK_CLASSES 4u

/* A thread keeps at most this many free descriptors per class; beyond it
 * hands ILAN_TASK_CACHE_BATCH of them to the process-wide pool (a thread
 * that only consumes tasks would otherwise hoard what producers need).
 * What consumers may hold is threads x MAX descriptors: 4 MiB of 512-byte
 * ones at 32 consumers; the pool's lock is taken once per BATCH tasks. */
#define ILAN_TASK_CACHE_MAX 256u
#define ILAN_TASK_CACHE_BATCH 128u

/* ---- the ILAN taskloop scheduler ---- */

/* Tasks per participating thread of a taskloop without grainsize or
 * num_tasks (the thesis's choice: enough to balance, few enough to be cheap). */
#define ILAN_TASKS_PER_WORKER 10u

/* In the ilan mode a taskloop's first execution measures its work; later
 * ones cut it into fewer than ILAN_TASKS_PER_WORKER tasks per thread when
 * that many would hold less than this much work each (ns): a task costs
 * about a microsecond to create, queue and complete. */
#define ILAN_MIN_TASK_NS 20000.0

/* The same for a range launch (ilan/range.h), where a task costs a CAS and
 * a copy of its argument block (about 0.1 us): finer tasks let the threads
 * finish closer together (a balanced loop's threads end at most a task
 * apart). */
#ifndef ILAN_RANGE_TASKS_PER_WORKER
#define ILAN_RANGE_TASKS_PER_WORKER 32u
#endif
/* Most tasks a range's lone runner claims at once (numa_dist_own_claim):
 * enough that a claim's atomic costs little beside 16 tasks of 10 ns (one
 * claim per task cost it 13 % of a grainsize(1) taskloop's time), few
 * enough that a thief still finds the rest of the range. */
#define ILAN_RANGE_CLAIM_MOST 16u

#ifndef ILAN_RANGE_MIN_TASK_NS
#define ILAN_RANGE_MIN_TASK_NS 4000.0
#endif

/* Under the `full` steal policy the first ILAN_STRICT_NUM / ILAN_STRICT_DEN
 * of each group's tasks stay NUMA-strict, so that every thread of the group
 * starts on local work before cross-group stealing can begin. */
#define ILAN_STRICT_NUM 1u
#define ILAN_STRICT_DEN 3u

/* A thread waiting while ILAN taskloop tasks are queued, that sees no task
 * of its team complete for this long, runs one from any group (the groups'
 * own threads may be blocked where they cannot run tasks). Sleeping
 * waiters wake this often to check. */
#define ILAN_STALL_NS 200000000ull

/* Taskloop identities the history keeps by default (ILAN_HISTORY_MAX):
 * past that the least recently used one not running is forgotten to make
 * room for a new one. An entry costs about 1 KiB plus its samples. */
#define ILAN_HISTORY_MAX_DEFAULT 4096

/* Default of ILAN_EXPLORE_MIN_US: a taskloop whose runs on every group
 * take less than this (median, microseconds) is not explored. Measured on
 * the 2-core development VM: a range launch and join costs 3-6 us and two
 * runs of one short loop differ by 5-10 us, so below about 30 us one
 * configuration cannot be told from another (README, "ILAN at the cost of
 * a plain loop"). */
#define ILAN_EXPLORE_MIN_US_DEFAULT 30

/* Spins at most on a contended lock (runtime mutexes, nest locks) before
 * sleeping on its futex: its holder is usually running and leaves soon. */
#define ILAN_LOCK_SPIN 4096u

#endif
