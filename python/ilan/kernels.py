"""The benchmark programs: their sources, variants and sizes, and how their output is parsed."""

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import IlanError
from .build import compile_c
from .paths import REPO, rel
from .runtimes import Runtime

BENCH = REPO / "bench"
COMMON = [BENCH / "common.h"]
KERNEL_DEPS = COMMON + [BENCH / "kernels" / "kernel.h"]
SIZES = ("tiny", "quick", "full")


@dataclass(frozen=True)
class Reference:
    """A program outside OpenMP that computes what a kernel computes, shown
    as a reference line of that kernel (as libgomp's `omp for
    schedule(static)` is for the loop kernels).  It takes the kernel's
    arguments, reads OMP_NUM_THREADS and prints the kernel's RESULT line
    with runtime=<runtime>."""
    runtime: str                    # its name in the table and in its RESULT line
    source: str                     # file under bench/reference/
    compiler: tuple[str, ...]       # compiler and flags
    libs: tuple[str, ...]           # link flags
    headers: tuple[str, ...]        # a header it includes: present when the library is installed
    package: str                    # the Debian package that provides them
    deps: tuple[str, ...] = ("tbb_reference.h",)  # files under bench/reference it includes

    @property
    def path(self) -> Path:
        return BENCH / "reference" / self.source

    def missing(self) -> str | None:
        """None when it can be built, else why not and what to do."""
        if not self.path.exists():
            return "%s is missing (an install without the reference sources)" % rel(self.path)
        if not any(Path(h).exists() for h in self.headers):
            return "%s not found (apt-get install %s, or make deps)" % (self.headers[0], self.package)
        return None

    def build(self) -> list[str]:
        """Compile if needed; return the command to run (without arguments)."""
        return [str(compile_c(self.path, deps=[BENCH / "reference" / d for d in self.deps],
                              compiler=self.compiler[0], flags=self.compiler[1:], libs=self.libs))]

    def as_runtime(self) -> Runtime:
        """The runtime its rows are filed under: OMP_NUM_THREADS set, no
        OpenMP library preloaded, its own name as the identity to report."""
        return Runtime(self.runtime, self.runtime)


TBB_FIB = Reference("tbb", "fib_tbb.cpp", ("g++", "-O2", "-std=c++17", "-Wall"), ("-ltbb",),
                    ("/usr/include/oneapi/tbb/task_group.h", "/usr/include/tbb/task_group.h"),
                    "libtbb-dev")
TBB_UTS = Reference("tbb", "uts_tbb.cpp", TBB_FIB.compiler, TBB_FIB.libs, TBB_FIB.headers,
                    TBB_FIB.package)


@dataclass(frozen=True)
class Kernel:
    """One benchmark program.  kind "kernel": one RESULT line per run, one
    variant per run, time in seconds; kind "overhead": JSON rows, every row
    one measurement (its name stands in the variant column), all in one run."""
    name: str
    what: str                       # one line for tables and --help
    variants: tuple[str, ...] = ("taskloop", "static", "dynamic")
    args: dict[str, list[str]] = field(default_factory=dict)   # size -> extra arguments
    kind: str = "kernel"
    source: str = ""                # default: bench/kernels/<name>.c
    command: tuple[str, ...] = ()   # a ready command instead of a source (tests)
    reference: Reference | None = None   # another library's version, run as a reference line
    also_threads: tuple[int, ...] = ()   # thread counts it also runs at unless --threads is given
    # variant -> environment its runs get (the loop kernels' runtime:NAME
    # variants set OMP_SCHEDULE=NAME); an overhead program with entries here
    # runs once per entry instead of once
    variant_env: dict[str, dict[str, str]] = field(default_factory=dict)
    # variant -> the runtime families that understand it; other runtimes skip
    # it (libgomp knows no OMP_SCHEDULE=fac2).  Absent: every runtime.
    variant_families: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def build(self) -> list[str]:
        """Compile if needed; return the command to run (without arguments)."""
        if self.command:
            return list(self.command)
        if self.kind == "overhead":
            src, deps = BENCH / "overhead" / (self.source or self.name + ".c"), COMMON
        else:
            src, deps = BENCH / "kernels" / (self.source or self.name + ".c"), KERNEL_DEPS
        if not src.exists():
            raise IlanError("%s: source %s is missing" % (self.name, src))
        return [str(compile_c(src, deps))]

    def argv(self, variant: str | None, size: str) -> list[str]:
        """Arguments for one run of `variant` at `size` (overhead programs take
        no --variant: theirs only sets the environment)."""
        extra = list(self.args.get(size, ()))
        return extra if variant is None or self.kind == "overhead" else ["--variant", variant] + extra

    def runs_on(self, variant: str | None, runtime: Runtime) -> bool:
        """Whether `runtime` runs `variant` (reference programs run their own
        variants; they are not filtered here)."""
        families = self.variant_families.get(variant or "")
        return families is None or runtime.family in families

    def env_for(self, variant: str | None) -> dict[str, str]:
        """The variables a run of `variant` sets on top of the runtime's."""
        return dict(self.variant_env.get(variant or "", {}))

    @property
    def main_variant(self) -> str:
        """The variant every runtime runs by default (taskloop, or task)."""
        return self.variants[0]


def _sized(tiny: str, quick: str, full: str = "") -> dict[str, list[str]]:
    return {"tiny": tiny.split(), "quick": quick.split(), "full": full.split()}


# OMP_SCHEDULE values of schedule(runtime) loops, and the runtime families
# that know them: ilan's own kinds (src/sched/README.md), libomp's
# static_steal (ilan maps it to adaptive with random victims), and auto,
# which every runtime accepts (libgomp and libomp run a fixed schedule).
RUNTIME_SCHEDULES: dict[str, tuple[str, ...]] = {
    "adaptive": ("ilan",), "fac2": ("ilan",), "tss": ("ilan",), "af": ("ilan",),
    "static_steal": ("libomp", "ilan"), "auto": ("libgomp", "libomp", "ilan"),
}
# The loop kernels' fixed schedules (bench/kernels/loops.c); plain `dynamic`
# first: gcc emits nonmonotonic:dynamic for it, ilan's adaptive engine.
LOOP_SCHEDULES = ("dynamic", "static", "static1", "dynamic1", "dynamic16", "guided")


def runtime_variants(names: tuple[str, ...] | list[str]) -> tuple[
        dict[str, dict[str, str]], dict[str, tuple[str, ...]]]:
    """(variant_env, variant_families) of the variants `runtime:NAME` for
    each OMP_SCHEDULE value NAME in RUNTIME_SCHEDULES."""
    env = {"runtime:" + n: {"OMP_SCHEDULE": n} for n in names}
    fam = {"runtime:" + n: RUNTIME_SCHEDULES[n] for n in names}
    return env, fam


def loop_kernel(name: str, what: str, args: dict[str, list[str]], program: str = "") -> Kernel:
    """A kernel of bench/kernels/loops.c: every fixed schedule, then
    schedule(runtime) under each OMP_SCHEDULE value its runtimes know.
    program: loops.c's --kernel (default: name without "loop_")."""
    env, fam = runtime_variants(list(RUNTIME_SCHEDULES))
    return Kernel(name, what, variants=LOOP_SCHEDULES + tuple(env), source="loops.c",
                  args={size: ["--kernel", program or name.removeprefix("loop_")] + a
                        for size, a in args.items()},
                  variant_env=env, variant_families=fam)


KERNELS = [
    Kernel("stream", "STREAM triad a = b + s*c (memory-bound)",
           args=_sized("--n 20000 --reps 2", "--n 2097152 --reps 30")),
    Kernel("jacobi", "2-D Jacobi stencil, repeated on the same grids (locality)",
           args=_sized("--n 64 --reps 3", "--n 768 --reps 60")),
    Kernel("matmul", "dense matmul, a taskloop over rows (compute-bound)",
           args=_sized("--n 48 --reps 1", "--n 384 --reps 12")),
    Kernel("spmv", "sparse mat-vec, irregular rows, short taskloops (CG)",
           args=_sized("--n 2000 --reps 3", "--n 20000 --reps 100")),
    Kernel("sweep", "line sweeps over four arrays (memory-bound, SP)",
           args=_sized("--n 64 --reps 2", "--n 768 --reps 40")),
    Kernel("mg", "V-cycles: taskloops whose iteration count changes (MG)",
           args=_sized("--n 4096 --reps 2", "--n 1048576 --reps 30")),
    Kernel("mandelbrot", "Mandelbrot rows (imbalanced)",
           args=_sized("--n 48 --reps 1", "--n 384 --reps 12")),
    Kernel("contention", "atomic adds into 4 shared counters (interference)",
           args=_sized("--n 20000 --reps 2", "--n 524288 --reps 30")),
    Kernel("cached", "a light update of a 512 KiB array, thousands of taskloops",
           args=_sized("--n 8192 --reps 20", "--n 65536 --reps 2000")),
    Kernel("cg", "16 short balanced taskloops of 14,000 iterations, hundreds of times (CG)",
           args=_sized("--n 2000 --reps 2", "--n 14000 --reps 100")),
    Kernel("fib", "fib(n) with a task per call", variants=("task",),
           args=_sized("--n 15 --reps 1", "--n 27 --reps 1", "--n 30 --reps 1"),
           reference=TBB_FIB, also_threads=(1,)),
    Kernel("nqueens", "n-queens, a task per placement", variants=("task",),
           args=_sized("--n 7 --reps 1", "--n 11 --reps 3")),
    # --n also seeds the tree; these n give trees of 100,177, 1,003,849 and
    # 20,566,561 nodes (the checksum): see bench/kernels/uts.c
    Kernel("uts", "unbalanced tree, a task per node, a taskwait per node (BOTS UTS)",
           variants=("task",),
           args=_sized("--n 100096 --reps 1", "--n 1000183 --reps 1", "--n 20000020 --reps 1"),
           reference=TBB_UTS),
    Kernel("sort", "merge sort, tasks sort quarters and split merges (BOTS sort)",
           variants=("task",),
           args=_sized("--n 20000 --reps 1", "--n 4194304 --reps 1", "--n 33554432 --reps 1")),
    # --n is the villages' tree depth: 21, 1,365 and 21,845 villages, 100 steps
    Kernel("health", "villages' hospitals, a task per village and step (BOTS health)",
           variants=("task",),
           args=_sized("--n 3 --reps 1", "--n 6 --reps 1", "--n 8 --reps 1")),
    Kernel("syncbench", "construct overheads, EPCC syncbench/schedbench style",
           variants=("overhead",), kind="overhead",
           args=_sized("--quick --reps 2 --only barrier,static", "--quick")),
    Kernel("forkjoin", "fork/join, fork/join with a reduction, ordered hand-offs (syncbench rows)",
           variants=("overhead",), kind="overhead", source="syncbench.c",
           args=_sized("--quick --reps 2 --only parallel,reduction,ordered",
                       "--quick --only parallel,reduction,ordered",
                       "--only parallel,reduction,ordered")),
    Kernel("schedbench", "µs per worksharing loop of each schedule clause (syncbench's rows)",
           variants=("overhead",), kind="overhead", source="syncbench.c",
           args=_sized("--quick --reps 2 --only static,dynamic",
                       "--quick --only static,static1,dynamic1,dynamic16,guided1,dynamic",
                       "--only static,static1,dynamic1,dynamic16,guided1,dynamic")),
    Kernel("schedbench_runtime", "µs per schedule(runtime) loop under each OMP_SCHEDULE value",
           variants=("overhead",), kind="overhead", source="syncbench.c",
           args=_sized("--quick --reps 2 --only runtime", "--quick --only runtime",
                       "--only runtime"),
           variant_env=runtime_variants(list(RUNTIME_SCHEDULES))[0],
           variant_families=runtime_variants(list(RUNTIME_SCHEDULES))[1]),
    loop_kernel("loop_triad", "STREAM triad a = b + 3c per schedule, arrays first touched static",
                _sized("--n 20000 --reps 5", "--n 2097152 --reps 20", "--n 8388608 --reps 20")),
    loop_kernel("loop_triangular", "row i costs i+1 (imbalanced, growing)",
                _sized("--n 2000 --reps 1", "--n 20000 --reps 1", "--n 40000 --reps 1")),
    loop_kernel("loop_mandel", "Mandelbrot rows, the costly rows in the second half",
                _sized("--n 64 --reps 1", "--n 400 --reps 1", "--n 800 --reps 1")),
    loop_kernel("loop_random", "Pareto-distributed random cost per iteration",
                _sized("--n 5000 --reps 1", "--n 200000 --reps 2", "--n 1000000 --reps 2")),
    loop_kernel("loop_kmeans", "K-Means assignment, 16 clusters of different sizes and spreads",
                _sized("--n 5000 --reps 2", "--n 200000 --reps 10", "--n 1000000 --reps 10")),
    loop_kernel("loop_timestep", "one loop executed 100 times (a band of dear cells): all timed",
                _sized("--n 2000 --reps 100", "--n 20000 --reps 100", "--n 100000 --reps 100")),
    loop_kernel("loop_timestep_after", "the same, steps 30..99 timed (after auto's trial)",
                _sized("--n 2000 --reps 100 --skip 30", "--n 20000 --reps 100 --skip 30",
                       "--n 100000 --reps 100 --skip 30"), program="timestep"),
    Kernel("taskloop_overhead", "taskloop overhead, EPCC schedbench style",
           variants=("overhead",), kind="overhead",
           args=_sized("--reps 2 --measure-ms 1", "--quick", "--measure-ms 10 --reps 60")),
    Kernel("stream_numa", "seed 003's STREAM variants (plain, nested, twisted, imbalanced) x "
           "placements (first touch; ilan only: bloc, interleaved, next touch), placement costs",
           variants=("overhead",), kind="overhead",
           args=_sized("--n 4096 --reps 2", "--n 1048576 --reps 7", "--n 4194304 --reps 11")),
    Kernel("taskbench", "cost per task of the EPCC taskbench patterns, and fine taskloops",
           variants=("overhead",), kind="overhead",
           args=_sized("--quick --reps 2", "--quick")),
]


def find(names: list[str], known: list[Kernel] | None = None) -> list[Kernel]:
    """The kernels named (all when names is empty), in the order known."""
    known = KERNELS if known is None else known
    by_name = {k.name: k for k in known}
    for n in names:
        if n not in by_name:
            raise IlanError("unknown kernel %r: choose from %s" % (n, ", ".join(by_name)))
    return [k for k in known if not names or k.name in names]


def parse_result_line(line: str) -> dict[str, Any]:
    """{key: value} of a `RESULT k=v ...` line (numbers as float)."""
    out: dict[str, Any] = {}
    for tok in shlex.split(line)[1:]:
        key, _, val = tok.partition("=")
        try:
            out[key] = float(val)
        except ValueError:
            out[key] = val
    return out


def parse_output(kernel: Kernel, stdout: str) -> tuple[str, str, list[dict[str, Any]]]:
    """(runtime reported, library path, [measurement]) from a run's stdout;
    a measurement is {variant, unit, value, ...}.  Raises ValueError when the
    output has no result."""
    if kernel.kind == "kernel":
        lines = [l for l in stdout.splitlines() if l.startswith("RESULT ")]
        if not lines:
            raise ValueError("no RESULT line in the output")
        r = parse_result_line(lines[-1])
        m = {"variant": r.get("variant"), "unit": "s", "value": r.get("time_s"),
             "checksum": r.get("checksum"), "expected": r.get("expected"),
             "verified": int(r.get("verified", 0))}
        return str(r.get("runtime", "?")), "?", [m]
    reported: str | None = None
    path = "?"
    rows: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if "runtime_self" in obj:
            reported, path = obj["runtime_self"], obj.get("path", "?")
        elif "row" in obj:
            rows.append({"variant": obj["row"], "unit": obj.get("unit", "us"),
                         "value": obj["median"], "min": obj.get("min"), "max": obj.get("max")})
    if reported is None or not rows:
        raise ValueError("no runtime_self line or no rows in the output")
    return reported, path, rows
