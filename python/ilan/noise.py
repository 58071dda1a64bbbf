"""`ilan noise`: seed 004's OS-noise experiment made runnable — a program run under several thread configurations, quiet and beside a CPU hog, with the OS counters of each run read from its ILAN_REPORT."""

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import IlanError
from .build import compile_c
from .chart import pyplot, save
from .paths import PACKAGE
from .runtimes import ilan_mode
from .table import fmt

# The values read from each run's report (ILAN_COUNTERS=os: the "noise"
# summary over the threads, in parallel regions), besides the run time.
COUNTS = ("voluntary_switches", "involuntary_switches", "cpu_migrations")

LOADS = ("quiet", "noise")


@dataclass(frozen=True)
class Config:
    """One thread configuration of seed 004."""
    name: str                     # as the table and chart show it
    env: dict[str, str]           # what it sets (OMP_NUM_THREADS, OMP_PLACES, ...)
    threads: int | None           # threads asked for (None: the runtime decides)


@dataclass(frozen=True)
class Layout:
    """The machine as the runtime binds to it: one place per core."""
    places: list[list[int]]       # OS CPU ids of each core, in ilan's place order
    groups: list[list[int]]       # ILAN's locality groups, as core (place) numbers
    group_kind: str               # what a group is: node, cache or core


@dataclass
class Skipped:
    """A configuration left out, and why."""
    name: str
    why: str


@dataclass
class Plan:
    """The configurations to run and the ones left out."""
    configs: list[Config] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def places_text(places: list[list[int]]) -> str:
    """OMP_PLACES for these places: {0},{1},{2,3}."""
    return ",".join("{%s}" % ",".join(map(str, p)) for p in places)


def configurations(layout: Layout, reserve: bool = True) -> Plan:
    """Seed 004's configurations on `layout`: every core; one core left
    idle (the last); one idle core per locality group (each group's last);
    and ILAN_RESERVE_CORES=1 when `reserve` (the runtime leaves the core to
    the OS itself). Threads are bound, one per place. A configuration that
    would leave no thread, or that repeats an earlier one's places, is
    skipped with the reason."""
    plan = Plan()
    n = len(layout.places)

    def add(name: str, cores: list[int]) -> None:
        if not cores:
            plan.skipped.append(Skipped(name, "no core would be left for a thread (%d core%s)"
                                        % (n, "" if n == 1 else "s")))
            return
        places = [layout.places[c] for c in cores]
        same = next((c for c in plan.configs if c.env.get("OMP_PLACES") == places_text(places)), None)
        if same:
            plan.skipped.append(Skipped(name, "the same cores as '%s' here" % same.name))
            return
        plan.configs.append(Config(name, {"OMP_NUM_THREADS": str(len(cores)),
                                          "OMP_PLACES": places_text(places),
                                          "OMP_PROC_BIND": "true"}, len(cores)))

    add("all cores", list(range(n)))
    add("one core idle", list(range(n - 1)))
    last = {g[-1] for g in layout.groups if g}
    name = "one idle core per group"
    if len(layout.groups) == n:
        plan.skipped.append(Skipped(name, "every locality group (%s) is one core here"
                                    % layout.group_kind))
    else:
        add(name, [c for c in range(n) if c not in last])
    if reserve:
        if n > 1:
            plan.configs.append(Config("ILAN_RESERVE_CORES=1", {"ILAN_RESERVE_CORES": "1"}, None))
        else:
            plan.skipped.append(Skipped("ILAN_RESERVE_CORES=1", "one core: nothing to reserve"))
    return plan


def probe_layout() -> Layout:
    """The places and groups of this machine, from the report of the topology
    probe run with bound threads."""
    rt = ilan_mode("ilan")
    why = rt.missing()
    if why:
        raise IlanError(why)
    binary = compile_c(PACKAGE / "topo_probe.c")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        env = rt.environ(len(os.sched_getaffinity(0)))
        for k in ("OMP_PLACES", "GOMP_CPU_AFFINITY", "ILAN_RESERVE_CORES"):
            env.pop(k, None)
        env.update({"OMP_PROC_BIND": "true", "ILAN_REPORT": str(report)})
        p = subprocess.run([str(binary)], env=env, capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or not report.exists():
            raise IlanError("the topology probe failed (status %d): %s; rebuild ilan (make)"
                            % (p.returncode, p.stderr.strip()[-300:] or "no report"))
        topo = json.loads(report.read_text())["topology"]
    places = [list(map(int, p)) for p in topo.get("places") or []]
    if not places:
        raise IlanError("the runtime reported no places with OMP_PROC_BIND=true; rebuild ilan (make)")
    return Layout(places, [list(map(int, g.get("cores", []))) for g in topo.get("groups", [])],
                  str(topo.get("group_kind", "group")))


class Hog:
    """The background noise: `count` processes spinning on the CPU, pinned
    to CPU `cpu` or floating (cpu None) where the scheduler puts them."""

    def __init__(self, count: int, cpu: int | None):
        self.count, self.cpu = count, cpu
        self.procs: list[subprocess.Popen[bytes]] = []

    def describe(self) -> str:
        what = "%d CPU hog%s" % (self.count, "" if self.count == 1 else "s")
        return what + (" pinned to CPU %d" % self.cpu if self.cpu is not None else " floating")

    def __enter__(self) -> "Hog":
        def pin() -> None:
            if self.cpu is not None:
                os.sched_setaffinity(0, {self.cpu})
        for _ in range(self.count):
            self.procs.append(subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                               preexec_fn=pin, stdin=subprocess.DEVNULL))
        time.sleep(0.05)   # running before the program starts
        return self

    def __exit__(self, *exc: object) -> None:
        for p in self.procs:
            p.send_signal(signal.SIGKILL)
        for p in self.procs:
            p.wait()
        self.procs = []


def check_program(argv: list[str]) -> None:
    """An IlanError unless argv[0] names a file that can run."""
    exe = argv[0]
    path = shutil.which(exe) if "/" not in exe else exe
    if not path or not os.path.isfile(path):
        raise IlanError("cannot run %s: no such program (give its path, e.g. ./app)" % exe)
    if not os.access(path, os.X_OK):
        raise IlanError("cannot run %s: it is not executable (chmod +x)" % exe)


def run_once(argv: list[str], config: Config, base: dict[str, str], timeout: int) -> dict[str, Any]:
    """One run of argv under config: wall time, threads and the OS counters
    of its report (None when the runtime could not read them)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        env = dict(base, ILAN_COUNTERS="os", ILAN_REPORT=str(report), **config.env)
        start = time.monotonic()
        try:
            p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise IlanError("%s ran longer than %d s under '%s' (--timeout)" % (
                argv[0], timeout, config.name)) from None
        except OSError as e:
            raise IlanError("cannot run %s: %s" % (argv[0], e.strerror)) from None
        seconds = time.monotonic() - start
        if p.returncode != 0:
            last = (p.stderr.strip().splitlines() or ["no message"])[-1]
            raise IlanError("%s failed (status %d) under '%s': %s" % (
                argv[0], p.returncode, config.name, last))
        try:
            doc = json.loads(report.read_text())
        except (OSError, ValueError):
            raise IlanError("%s wrote no ILAN_REPORT: does it run on ilan's libgomp.so.1 "
                            "(gcc -fopenmp, dynamically linked) and exit normally?" % argv[0]) from None
    os_ = doc.get("os") or {}
    n = os_.get("noise") if os_.get("available") else None
    out: dict[str, Any] = {"time_s": seconds, "threads": len(doc.get("threads") or []),
                           "os_reason": None if n else (os_.get("reason") or "unavailable")}
    for k in COUNTS:
        out[k] = int(n[k]) if n else None
    out["descheduled_s"] = float(n["descheduled_s"]) if n else None
    return out


def experiment(programs: list[list[str]], plan: Plan, hog: Hog, rounds: int, timeout: int,
               progress: bool = True) -> list[dict[str, Any]]:
    """Every program under every configuration, quiet and with the hog,
    `rounds` times, rounds interleaved; one record per run."""
    rt = ilan_mode("ilan")
    why = rt.missing()
    if why:
        raise IlanError(why)
    base = {k: v for k, v in rt.environ().items()
            if not k.startswith(("OMP_", "GOMP_", "ILAN_"))}
    runs = []
    total = rounds * len(programs) * len(plan.configs) * len(LOADS)
    for r in range(rounds):
        for argv in programs:
            for config in plan.configs:
                for load in LOADS:
                    if load == "noise":
                        with hog:
                            got = run_once(argv, config, base, timeout)
                    else:
                        got = run_once(argv, config, base, timeout)
                    runs.append(dict(got, program=" ".join(argv), config=config.name, load=load,
                                     round=r))
                    if progress:
                        print("  [%d/%d] %s, %s, %s: %.3f s" % (
                            len(runs), total, os.path.basename(argv[0]), config.name, load,
                            got["time_s"]), file=sys.stderr)
    return runs


def summarise(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (program, configuration, load): medians over the rounds,
    and the run time's range."""
    rows: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for run in runs:
        rows.setdefault((run["program"], run["config"], run["load"]), []).append(run)

    def median(vs: list[Any]) -> Any:
        got = [v for v in vs if v is not None]
        return statistics.median(got) if got else None
    out = []
    for (program, config, load), rs in rows.items():
        times = [r["time_s"] for r in rs]
        row = {"program": program, "config": config, "load": load, "rounds": len(rs),
               "threads": median([r["threads"] for r in rs]), "time_s": median(times),
               "time_min_s": min(times), "time_max_s": max(times),
               "descheduled_s": median([r["descheduled_s"] for r in rs])}
        for k in COUNTS:
            row[k] = median([r[k] for r in rs])
        out.append(row)
    return out


def count(x: float | None) -> str:
    """A median of counts: whole when it is, "-" when missing."""
    if x is None:
        return "-"
    return "%d" % x if float(x).is_integer() else "%.1f" % x


def render(summary: list[dict[str, Any]]) -> str:
    """The summary as an aligned table (medians over the rounds)."""
    head = ["program", "configuration", "threads", "load", "time s", "min-max s", "voluntary cs",
            "involuntary cs", "migrations", "descheduled ms"]
    body = []
    last = None
    for r in summary:
        body.append([os.path.basename(r["program"].split()[0]) if r["program"] != last else "",
                     r["config"], count(r["threads"]), r["load"], fmt(r["time_s"]),
                     "%s-%s" % (fmt(r["time_min_s"]), fmt(r["time_max_s"])),
                     count(r["voluntary_switches"]), count(r["involuntary_switches"]),
                     count(r["cpu_migrations"]),
                     fmt(r["descheduled_s"] * 1e3) if r["descheduled_s"] is not None else "-"])
        last = r["program"]
    left = {0, 1, 3}   # text columns; the others are numbers
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) if i in left else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
                     for r in [head] + body)


def check_writable(path: Path, what: str) -> None:
    """An IlanError unless a file can be written at path (checked before the
    runs, so that minutes of measuring are not lost at the end)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise IlanError("cannot write the %s %s: it is a folder" % (what, path))
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise IlanError("cannot write the %s %s: %s is not a folder you may write (pass a "
                        "path in one)" % (what, path, folder))


def draw(summary: list[dict[str, Any]], path: Path, title: str) -> Path:
    """PNG: per program a row of bars per configuration, quiet beside noise:
    run time, involuntary and voluntary context switches, CPU migrations
    and descheduled time."""
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator
    programs = list(dict.fromkeys(r["program"] for r in summary))
    panels = [("time_s", "run time (s)", 1.0, False),
              ("involuntary_switches", "involuntary context switches (count)", 1.0, True),
              ("voluntary_switches", "voluntary context switches (count)", 1.0, True),
              ("cpu_migrations", "CPU migrations (count)", 1.0, True),
              ("descheduled_s", "descheduled (ms)", 1e3, False)]
    fig, axes = plt.subplots(len(programs), len(panels), squeeze=False,
                             figsize=(3.6 * len(panels), 3.3 * len(programs)))
    for i, program in enumerate(programs):
        rows = [r for r in summary if r["program"] == program]
        configs = list(dict.fromkeys(r["config"] for r in rows))
        for j, (key, label, scale, integer) in enumerate(panels):
            ax = axes[i][j]
            for k, load in enumerate(LOADS):
                vals = []
                for c in configs:
                    r = next((r for r in rows if r["config"] == c and r["load"] == load), None)
                    v = r.get(key) if r else None
                    vals.append(float(v) * scale if v is not None else 0.0)
                ax.bar([x + (k - 0.5) * 0.38 for x in range(len(configs))], vals, width=0.38,
                       label=load, hatch="//" if load == "noise" else None)
            ax.set_xticks(range(len(configs)))
            ax.set_xticklabels(configs, rotation=25, ha="right", fontsize=7)
            ax.set_xlabel("thread configuration")
            ax.set_ylabel(label, fontsize=8)
            ax.set_ylim(bottom=0)
            if integer:
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
                if ax.get_ylim()[1] < 1:
                    ax.set_ylim(0, 1)   # all zero: 0 and 1, not fractions of a count
            if j == 0:
                ax.set_title(os.path.basename(program.split()[0]), fontsize=9, loc="left")
                ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    return save(fig, path)
