"""Every environment variable the ilan runtime and the ilan command read, with one line each: the source of `ilan run --help`'s list (docs/man/ilan-env.7 says the same at length)."""

from typing import NamedTuple


class Variable(NamedTuple):
    """One environment variable and what it does."""
    name: str
    meaning: str


# The runtime (src/config/env.c). tests/python/test_env_docs.py
# checks that every variable the sources read is listed here and in the man page.
RUNTIME = [
    Variable("OMP_NUM_THREADS", "threads per team, a list per nesting level (default: one per core)"),
    Variable("OMP_SCHEDULE", "schedule of schedule(runtime) loops: [modifier:]kind[,chunk]; kinds "
             "static, dynamic, guided, auto, and ilan's adaptive, static_steal, fac2, tss, af"),
    Variable("OMP_DYNAMIC", "true lets the runtime give a team fewer threads"),
    Variable("OMP_NESTED", "deprecated: true allows nested parallelism"),
    Variable("OMP_MAX_ACTIVE_LEVELS", "nested active parallel regions allowed"),
    Variable("OMP_THREAD_LIMIT", "threads in the whole program"),
    Variable("OMP_STACKSIZE", "worker stack size: N[B|K|M|G] (default 16M)"),
    Variable("OMP_WAIT_POLICY", "active (spin) or passive (sleep at once) waiting"),
    Variable("OMP_PROC_BIND", "false (the default: nothing bound), true, primary, close, spread, "
             "or a list per level"),
    Variable("OMP_PLACES", "threads, cores, ll_caches, numa_domains, sockets [(n)], or {..} lists"),
    Variable("OMP_CANCELLATION", "true enables the cancel construct"),
    Variable("OMP_DEFAULT_DEVICE", "default device number (the host is the only device)"),
    Variable("OMP_MAX_TASK_PRIORITY", "highest priority() a task may use"),
    Variable("OMP_DISPLAY_ENV", "true or verbose: print the settings in force at start-up"),
    Variable("OMP_DISPLAY_AFFINITY", "true: print each thread's binding when it changes"),
    Variable("OMP_AFFINITY_FORMAT", "the format of those lines"),
    Variable(
        "OMP_ALLOCATOR",
        "the default memory allocator (omp_default_mem_alloc, ...), or a memory space with a "
        "partition: omp_default_mem_space:partition=nearest|blocked|interleaved|environment",
    ),
    Variable("OMP_TARGET_OFFLOAD", "mandatory, disabled or default; target regions run on the host"),
    Variable("OMP_NUM_TEAMS", "teams in a teams region"),
    Variable("OMP_TEAMS_THREAD_LIMIT", "threads per team in a teams region"),
    Variable("GOMP_CPU_AFFINITY", "libgomp's CPU list (e.g. 0 3 1-2 4-15:2): one place per CPU, "
             "used when OMP_PLACES is unset"),
    Variable("GOMP_STACKSIZE", "as OMP_STACKSIZE, which wins"),
    Variable("GOMP_SPINCOUNT", "spins before a waiting thread sleeps (N, or infinite)"),
    Variable("GOMP_DEBUG", "accepted for compatibility, no effect"),
    Variable("ILAN_TASKLOOP", "taskloop scheduling: ilan (default), numa or ws"),
    Variable("ILAN_BUBBLES", "cache or memory: nested teams placed as bubbles, each bound to one "
             "NUMA node (else LLC), re-spread when imbalanced; memory also moves each team's "
             "attached memory (unset: no bubbles, nothing bound)"),
    Variable("ILAN_BARRIER", "the team barrier: tree (default: counters in a tree grouped by "
             "core, cache and node, woken down the tree) or central (one counter)"),
    Variable("ILAN_BARRIER_FANIN", "N: children per node and locality level of the tree barrier, "
             "2 to 64 (default 4)"),
    Variable("ILAN_STEAL_POLICY", "strict or full: force ILAN's cross-group stealing"),
    Variable("ILAN_TASK_STEAL", "work-stealing victim policy: random (default)"),
    Variable("ILAN_DLB", "how idle threads get tasks: ws (default: they steal from deques), "
             "na-ws (they ask; a busy thread sends queued tasks) or na-rp (it sends its next new "
             "tasks)"),
    Variable("ILAN_DLB_VICTIMS", "N: threads an idle thread asks at once under na-ws/na-rp "
             "(default 1)"),
    Variable("ILAN_DLB_STEAL", "N: most tasks one request moves, or one ws steal takes "
             "(default 1)"),
    Variable("ILAN_DLB_INTERVAL", "N: idle rounds before an unanswered thread asks again "
             "(default 64)"),
    Variable("ILAN_DLB_PLOCAL", "0..1: probability that a thief's draw (a steal or a request) "
             "picks its own NUMA node or cache group, else the nearest other (default 1)"),
    Variable("ILAN_EXPLORE_MIN_US", "N: taskloops whose runs on every group take less than N us "
             "(median) are not explored (default 30)"),
    Variable("ILAN_HISTORY_MAX", "N: taskloop identities ILAN remembers; past that the least "
             "recently used are forgotten (default 4096)"),
    Variable("ILAN_RESERVE_CORES", "N cores get no worker, left to the operating system "
             "(turns binding on)"),
    Variable("ILAN_SPIN_COUNT", "as GOMP_SPINCOUNT, which it overrides"),
    Variable("ILAN_REPORT", "FILE.json: the scheduler's report at exit (%p: pid, %r: MPI rank); "
             "stderr (or 1, on): a summary; 0, off: none"),
    Variable("ILAN_COUNTERS", "off (default), runtime (per-thread counters and time per state), "
             "os (also perf context switches, migrations, descheduled time), all (also IPC)"),
    Variable("ILAN_TRACE", "FILE.json: a Chrome/Perfetto timeline written at exit (%p, %r as in "
             "ILAN_REPORT)"),
    Variable("ILAN_TRACE_TASKS", "which task slices the trace keeps: all (default), 1/N or none"),
    Variable("ILAN_VERBOSE", "1: start-up summary and ILAN decisions on stderr; 2: also "
             "OMP_DISPLAY_ENV"),
    Variable("ILAN_DEBUG_WAIT_DELAY_US", "debug builds only: every waiter pauses N us (0..100000) "
             "between its last look and going to sleep, to expose lost wake-ups"),
    Variable("HWLOC_SYNTHETIC", "run on a what-if machine, e.g. \"pack:2 numa:4 core:8 pu:1\""),
    Variable("HWLOC_XMLFILE", "run on the machine described by an hwloc XML file"),
    Variable("HWLOC_THISSYSTEM", "1: the XML file is the machine the program runs on (not a what-if)"),
]

# The ilan command itself.
TOOL = [
    Variable("ILAN_LIB", "the folder holding ilan's libgomp.so.1 (or that file): overrides "
             "the installed or built one"),
    Variable("ILAN_BUILD_DIR", "in a source tree: the build folder (default build/)"),
]


def help_text() -> str:
    """The variables as --help shows them: name, then meaning, aligned."""
    width = max(len(v.name) for v in RUNTIME + TOOL) + 2
    lines = ["environment read by the runtime (details: man ilan-env):"]
    lines += ["  %-*s%s" % (width, v.name, v.meaning) for v in RUNTIME]
    lines += ["", "environment read by the ilan command:"]
    lines += ["  %-*s%s" % (width, v.name, v.meaning) for v in TOOL]
    return "\n".join(lines)
