"""The benchmark programs: their sources, variants and sizes, and how their output is parsed."""

import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from . import IlanError
from .build import compile_c
from .paths import REPO

BENCH = REPO / "bench"
COMMON = [BENCH / "common.h"]
KERNEL_DEPS = COMMON + [BENCH / "kernels" / "kernel.h"]
SIZES = ("tiny", "quick", "full")


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
        """Arguments for one run of `variant` (None for overhead programs) at `size`."""
        extra = list(self.args.get(size, ()))
        return extra if variant is None else ["--variant", variant] + extra

    @property
    def main_variant(self) -> str:
        """The variant every runtime runs by default (taskloop, or task)."""
        return self.variants[0]


def _sized(tiny: str, quick: str, full: str = "") -> dict[str, list[str]]:
    return {"tiny": tiny.split(), "quick": quick.split(), "full": full.split()}


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
    Kernel("fib", "fib(n) with a task per call", variants=("task",),
           args=_sized("--n 15 --reps 1", "--n 25 --reps 3")),
    Kernel("nqueens", "n-queens, a task per placement", variants=("task",),
           args=_sized("--n 7 --reps 1", "--n 11 --reps 3")),
    Kernel("syncbench", "construct overheads, EPCC syncbench/schedbench style",
           variants=("overhead",), kind="overhead",
           args=_sized("--quick --reps 2 --only barrier,static", "--quick")),
    Kernel("taskloop_overhead", "taskloop overhead, EPCC schedbench style",
           variants=("overhead",), kind="overhead",
           args=_sized("--reps 2 --delay-us 0.2", "--quick")),
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
