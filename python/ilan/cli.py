"""The `ilan` command line: run, bench, report, noise, topo and sim."""

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from . import (
    IlanError,
    __version__,
    envvars,
    kernels,
    noise,
    observe,
    report,
    results,
    runner,
    sim,
    table,
    topo,
)
from .loadcheck import LoadTrace, verdict
from .paths import rel, results_dir
from .runtimes import MODES, Runtime, all_runtimes, ilan_library, ilan_mode, select

# Variables that already say how threads are bound: `ilan run` then adds nothing.
BINDING_VARIABLES = ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY")

RUN_EPILOG = """\
binding: unless OMP_PROC_BIND, OMP_PLACES or GOMP_CPU_AFFINITY is set, ilan run
sets OMP_PROC_BIND=true (each thread pinned to one place; ilan's default places
are the cores) and says so on stderr, because ILAN's NUMA decisions need threads
that stay where they are. --no-bind sets OMP_PROC_BIND=false instead.

check: the program runs with LD_DEBUG=files (glibc's loader lists the libraries
it loads, into a temporary folder); when no process of the run loaded ilan's
libgomp.so.1 (a static binary, a program without OpenMP, a clang program on
LLVM libomp), ilan run prints one line saying so. --no-check skips this.

exit status: the program's; 128+N when a signal N killed it (as a shell
reports it: 139 for SIGSEGV); 1 when the program succeeded but did not run
on ilan; 2 for bad arguments.

"""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage dump), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, "%s: error: %s (see %s --help)\n" % (self.prog, message, self.prog))


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % value)
    return value


def comma_list(text: str | None) -> list[str]:
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def thread_list(text: str) -> list[int]:
    """An argparse type: a comma list of thread counts, each at least 1
    (`4` or `1,2,4,16`); repeated counts count once."""
    names = comma_list(text)
    if not names:
        raise argparse.ArgumentTypeError("give a thread count or a comma list of them, e.g. 1,2")
    return list(dict.fromkeys(positive_int(n) for n in names))


def show_threads(counts: list[int]) -> str:
    """'2 threads', '1 thread' or 'threads 1,2' for a title."""
    if len(counts) == 1:
        return "%d thread%s" % (counts[0], "" if counts[0] == 1 else "s")
    return "threads " + ",".join(map(str, counts))


def known_variants() -> list[str]:
    """Every variant a kernel can run (overhead programs have none to choose)."""
    return list(dict.fromkeys(v for k in kernels.KERNELS if k.kind == "kernel" for v in k.variants))


def variant_list(text: str) -> list[str]:
    """An argparse type: a comma list of known variants."""
    names = comma_list(text)
    bad = [n for n in names if n not in known_variants() and n != "all"]
    if bad or not names:
        raise argparse.ArgumentTypeError("unknown variant %r: choose from %s" % (
            bad[0] if bad else text, ",".join(known_variants())))
    return names


def exit_status(returncode: int, program: str) -> int:
    """The status a shell reports for a child: 128 + N when signal N killed it
    (subprocess gives -N), said on stderr as the shell would."""
    if returncode >= 0:
        return returncode
    number = -returncode
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = "signal %d" % number
    print("ilan run: %s was killed by %s (%s)" % (program, name, signal.strsignal(number)),
          file=sys.stderr)
    return 128 + number


def cmd_run(args: argparse.Namespace) -> int:
    """Run a program on ilan, check it really did; returns its exit status."""
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not argv:
        raise IlanError("no program given: ilan run [--mode M] [--report FILE] -- ./app args")
    rt = ilan_mode(args.mode)
    why = rt.missing()
    if why:
        raise IlanError(why)
    env = rt.environ(args.threads)
    if args.no_bind:
        env["OMP_PROC_BIND"] = "false"
    elif not any(v in env for v in BINDING_VARIABLES):
        env["OMP_PROC_BIND"] = "true"
        runner.log("ilan run: binding threads (OMP_PROC_BIND=true: one per place, ilan's places "
                   "are the cores); --no-bind leaves them unbound")
    # A pattern (%p, %r) names files the tool cannot predict: no check then.
    report_file = args.report if args.report and args.report != "stderr" and "%" not in args.report else None
    if args.report:
        env["ILAN_REPORT"] = args.report
    if report_file and os.path.exists(report_file):
        os.remove(report_file)   # so that a stale report is not taken for this run's
    # The user's own loader debugging wins over the check.
    trace = None if args.no_check or "LD_DEBUG" in env or "LD_DEBUG_OUTPUT" in env else LoadTrace()
    if trace:
        trace.arm(env)
    try:
        try:
            returncode = subprocess.run(argv, env=env).returncode
        except OSError as e:
            raise IlanError("cannot run %s: %s (check the path and that it is executable)"
                            % (argv[0], e.strerror)) from None
        status = exit_status(returncode, argv[0])
        problem = verdict(argv[0], trace.libraries(), ilan_library()) if trace else None
    finally:
        if trace:
            trace.close()
    if problem:
        print("ilan run: ilan was not used: %s" % problem, file=sys.stderr)
        return status or 1
    if report_file and not os.path.exists(report_file):
        runner.log("ilan run: note: no report was written to %s (did the program exit "
                   "normally, through exit or main's return?)" % report_file)
    return status


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark matrix, print the table, save JSON and chart."""
    chosen = kernels.find(comma_list(args.kernels))
    if args.list:
        for k in kernels.KERNELS:
            note = "; reference line: %s" % k.reference.runtime if k.reference else ""
            print("%-18s %-26s %s%s" % (k.name, ",".join(k.variants), k.what, note))
        return 0
    if args.table_from:
        return show_table(args.table_from, [k.name for k in chosen] if args.kernels else None,
                          args.markdown, args.pair)
    size = args.size or ("quick" if args.quick else "full")
    repeat = args.repeat or (1 if size == "tiny" else 5)
    present, skipped = select(comma_list(args.runtimes), all_runtimes(args.libomp_defaults))
    for name, note in skipped.items():
        runner.log("%s: %s" % (name, note))
    if not present:
        raise IlanError("no runtime left to run: install one of those skipped above")
    references: dict[str, Runtime] = {}
    for k in chosen:
        ref = k.reference
        if ref is None or ref.runtime in references or ref.runtime in skipped:
            continue
        why = ref.missing()
        if why:
            skipped[ref.runtime] = "reference line skipped: " + why
            runner.log("%s: %s" % (ref.runtime, skipped[ref.runtime]))
        else:
            references[ref.runtime] = ref.as_runtime()
    variants = args.variants or list(runner.MAIN_VARIANTS)
    chosen_threads = args.threads is not None
    threads = args.threads or [len(os.sched_getaffinity(0))]
    runs = runner.bench(chosen, present, size, repeat, threads, args.timeout, variants,
                        chosen_threads, references)
    summary = table.summarise(runs)
    counts = sorted({r["threads"] for r in runs}) or threads
    command = "ilan bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    options = {"size": size, "repeat": repeat, "threads": counts,
               "kernels": [k.name for k in chosen], "variants": variants,
               "runtimes": [r.name for r in present], "references": list(references),
               "timeout": args.timeout}
    doc = results.make(command, options, present, skipped, runs, summary)
    stem = Path(args.out) if args.out else results.default_stem(
        results_dir(), doc["machine"]["host"])
    json_path = stem.with_suffix(".json")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    png, no_chart = None, "no kernel with a time"
    if args.no_chart:
        no_chart = "--no-chart"
    else:
        from . import chart  # matplotlib: loaded only to draw
        try:
            png = chart.draw(summary, stem.with_suffix(".png"),
                             "%s, %s, %s size, median of %d; %s" % (
                                 doc["machine"]["cpu_model"], show_threads(counts), size, repeat,
                                 doc["date"][:10]))
        except IlanError as e:
            no_chart = str(e)
    doc["chart"] = rel(png) if png else None
    results.save(doc, json_path)
    print("%s, %s, %s sizes, median of %d interleaved runs; command: %s"
          % (doc["machine"]["cpu_model"], show_threads(counts), size, repeat, command))
    print(table.render(summary, skipped, args.markdown))
    print_pairs(runs, args.pair, args.markdown)
    print(table.disturbance_note(runs))
    print(table.LEGEND)
    print("results: %s" % rel(json_path))
    print("chart:   %s" % (rel(png) if png else "none (%s)" % no_chart))
    return 1 if any(r["status"] != "ok" for r in summary) else 0


def runtime_pair(text: str) -> tuple[str, str]:
    """--pair's value: two sides (RUNTIME or RUNTIME@VARIANT) joined by a slash."""
    a, sep, b = text.partition("/")
    if not sep or not a or not b or a.startswith("@") or b.startswith("@"):
        raise argparse.ArgumentTypeError("%r: write two runtimes as A/B, e.g. ilan/ilan-ws, or "
                                         "RUNTIME@VARIANT on either side" % text)
    return a, b


def print_pairs(runs: list[dict[str, Any]], pairs: list[tuple[str, str]], markdown: bool) -> None:
    """The paired table of each --pair, or why it is empty."""
    for a, b in pairs:
        rows = table.paired(runs, a, b)
        print()
        print(table.render_paired(rows, markdown) if rows else
              "%s / %s: no round ran both (name them in --runtimes)" % (a, b))


def show_table(path: str, names: list[str] | None, markdown: bool,
               pairs: list[tuple[str, str]] | None = None) -> int:
    """Print the table of a saved bench run, its rows limited to `names`."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise IlanError("cannot read %s (%s): pass a JSON file written by ilan bench" % (path, e)) from None
    bad = results.problems(doc)
    if bad:
        raise IlanError("%s is not an ilan bench result: %s" % (path, "; ".join(bad[:3])))
    # summarised again from the runs, so an older file gets today's rules
    summary = [r for r in table.summarise(doc["runs"]) if names is None or r["kernel"] in names]
    print("%s; command: %s" % (doc["date"], doc["command"]))
    print(table.render(summary, doc["skipped"], markdown))
    kept = [r for r in doc["runs"] if names is None or r["kernel"] in names]
    print_pairs(kept, pairs or [], markdown)
    print(table.disturbance_note(kept))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    if args.trace:
        doc = observe.load_trace(args.file)
        print(shape_checked(args.file, lambda: observe.render_trace(doc)))
        return 0
    doc = report.load(args.file)
    print(shape_checked(args.file, lambda: report.render(doc) + "\n\n" + observe.render(doc)))
    png = Path(args.png) if args.png else Path(args.file).with_suffix(".png")
    threads_png = png.with_name(png.stem + "-threads" + png.suffix)
    try:
        for path, drawn in ((png, lambda: report.draw(doc, png, args.top)),
                            (threads_png, lambda: observe.draw(doc, threads_png))):
            if shape_checked(args.file, drawn):
                print("chart: %s" % path)
    except OSError as e:
        raise IlanError("cannot write the chart %s (%s): pass --png PATH in a folder you "
                        "may write" % (e.filename or png, e.strerror or e)) from None
    except IlanError as e:
        if "matplotlib" not in str(e):
            raise
        print("chart: none (%s)" % e)
    return 0


T = TypeVar("T")


def shape_checked(path: str, fn: Callable[[], T]) -> T:
    """fn(), with a report of an unexpected shape (valid JSON, wrong fields)
    turned into one IlanError instead of a traceback."""
    try:
        return fn()
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise IlanError("%s does not have the shape of an ilan report or trace (%s: %s): pass "
                        "a file the runtime wrote" % (path, type(e).__name__, e)) from None


NOISE_EPILOG = """\
configurations (seed 004), threads bound one per core (OMP_PROC_BIND=true,
OMP_PLACES listing the cores used):
  all cores                 a thread on every core
  one core idle             the last core left to the OS
  one idle core per GROUP   the last core of each of ILAN's locality groups left
                            idle (skipped when every group is one core)
  ILAN_RESERVE_CORES=1      the runtime itself leaves a core to the OS
Each runs quiet and beside the noise load (--noise), --rounds times, rounds
interleaved. The counters are the runtime's own (ILAN_COUNTERS=os, read from
each run's ILAN_REPORT): context switches split into voluntary (the thread
blocked or slept) and involuntary (the OS preempted it), CPU migrations and
descheduled time, summed over the threads, inside parallel regions; run time
is the process's wall time. Medians over the rounds.

several programs: separate them with another --, e.g.
  ilan noise -- build/bench/mandelbrot --n 384 -- build/bench/stream --n 4194304

exit status: 0; 1 when a run fails or the output cannot be written; 2 for bad
arguments.
"""


def split_programs(command: list[str]) -> list[list[str]]:
    """`-- a x -- b y` as [[a, x], [b, y]] (empty parts dropped)."""
    programs: list[list[str]] = [[]]
    for word in command:
        if word == "--":
            programs.append([])
        else:
            programs[-1].append(word)
    return [p for p in programs if p]


def cmd_noise(args: argparse.Namespace) -> int:
    """Run programs under seed 004's configurations, quiet and noisy."""
    programs = split_programs(args.command)
    if not programs:
        raise IlanError("no program given: ilan noise [options] -- ./app args")
    for argv in programs:
        noise.check_program(argv)
    allowed = sorted(os.sched_getaffinity(0))
    if args.noise == "pinned" and args.noise_cpu is not None and args.noise_cpu not in allowed:
        raise IlanError("--noise-cpu %d is not a CPU this process may use (%s)" % (
            args.noise_cpu, ",".join(map(str, allowed))))
    out = Path(args.out) if args.out else results_dir() / time.strftime("noise-%Y%m%d-%H%M%S")
    json_path = out.with_suffix(".json")
    png = Path(args.png) if args.png else out.with_suffix(".png")
    noise.check_writable(json_path, "results file")
    if not args.no_chart:
        noise.check_writable(png, "chart")
    hog = noise.Hog(args.noise_hogs, None if args.noise == "floating" else
                    (args.noise_cpu if args.noise_cpu is not None else allowed[-1]))
    plan = noise.configurations(noise.probe_layout())
    runner.log("ilan noise: %d configuration(s) x quiet/%s x %d round(s) per program" % (
        len(plan.configs), hog.describe(), args.rounds))
    for s in plan.skipped:
        runner.log("ilan noise: '%s' left out: %s" % (s.name, s.why))
    runs = noise.experiment(programs, plan, hog, args.rounds, args.timeout)
    summary = noise.summarise(runs)
    print(noise.render(summary))
    reasons = {r["os_reason"] for r in runs if r["os_reason"]}
    if reasons:
        print("OS counters unavailable: %s" % "; ".join(sorted(reasons)))
    command = "ilan " + " ".join(shlex.quote(a) for a in (args.argv or ["noise"]))
    doc = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "command": command,
           "noise": hog.describe(), "rounds": args.rounds,
           "configurations": [{"name": c.name, "env": c.env} for c in plan.configs],
           "skipped": [{"name": s.name, "why": s.why} for s in plan.skipped],
           "runs": runs, "summary": summary}
    try:
        json_path.write_text(json.dumps(doc, indent=1) + "\n")
        print("results: %s" % rel(json_path))
        if not args.no_chart:
            noise.draw(summary, png, "%s; quiet vs %s; median of %d round(s)" % (
                command if len(command) < 110 else command[:107] + "...", hog.describe(),
                args.rounds))
            print("chart:   %s" % rel(png))
    except OSError as e:
        raise IlanError("cannot write %s (%s): pass --out/--png paths in a folder you may "
                        "write" % (e.filename or png, e.strerror or e)) from None
    return 0


def cmd_topo(args: argparse.Namespace) -> int:
    print(topo.describe(topo.probe(args.threads)))
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    """Simulate workloads on a machine model under each policy: a table per
    workload, and --json / --plots when asked."""
    params_path = args.params or str(sim.DEFAULT_PARAMS)
    params = sim.load_params(params_path)
    desc = args.machine or params.get("topology")
    if not desc:
        raise IlanError("no machine: give --machine TOPOLOGY (an hwloc synthetic description or "
                        "XML file), or a parameter file with a \"topology\"")
    workloads = [sim.load_workload(w) for w in args.workloads]
    names = [w.name for w in workloads]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise IlanError("workload %s given twice (names must differ: they name the results)" % twice[0])
    engine = sim.engine_path()
    sim.check_engine(engine)
    machine = sim.read_machine(desc)
    if args.threads is not None and args.threads > machine.cores:
        raise IlanError("--threads %d: the machine has %d cores, and a thread runs alone on its "
                        "core (oversubscription is not modelled)" % (args.threads, machine.cores))
    run = sim.Sim(machine, params, params_path, workloads, args.policies, args.seed,
                  args.threads or 0, args.timeline, args.dlb, args.slb_queue)
    results = sim.run(run, engine)
    print(sim.describe_run(run))
    for w in workloads:
        print()
        print(sim.render(w, results[w.name], run.policies, args.markdown))
    if args.json:
        doc = sim.document(run, results, sim.command_line(args.argv or ["sim"]))
        try:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(doc, indent=1) + "\n")
        except OSError as e:
            raise IlanError("cannot write %s (%s): pass --json a path in a folder you may write"
                            % (args.json, e.strerror or e)) from None
        print("\nresults: %s" % rel(args.json))
    if args.plots:
        try:
            made = sim.draw_all(run, results, Path(args.plots), runner.log)
        except OSError as e:
            raise IlanError("cannot write the plots in %s (%s): pass --plots a folder you may "
                            "write" % (args.plots, e.strerror or e)) from None
        print("plots: %s" % ", ".join(rel(p) for p in made))
    return 0


def policies_arg(text: str) -> list[str]:
    """An argparse type: --policies' comma list."""
    try:
        return sim.policy_list(text)
    except IlanError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def dlb_arg(text: str) -> sim.DlbParams:
    """An argparse type: --dlb V,S,I,P."""
    try:
        return sim.dlb_params(text)
    except IlanError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def seed_arg(text: str) -> int:
    """An argparse type: a seed, a whole number from 0 to 2^64-1."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError("%d is not between 0 and 2^64-1" % value)
    return value


SIM_EPILOG = """\
The machine: --machine names its shape (an hwloc synthetic description such
as "pack:2 numa:4 core:8 pu:1", or an hwloc XML file), read through the
runtime's own topology code; by default, the "topology" of the parameter
file. The parameter file gives its speeds and costs (sim/machines/*.json,
sim/README.md's table). Threads: one per core, thread i on core i of the
model; thread 0 creates the taskloops.

Policies: ws (random stealing, last victim first), llvm (uniformly random
stealing: the baseline of seed 000), numa (NUMA-aware distribution, strict)
and ilan (the full ILAN scheduler); when named, thesis (seed 000's
exploration as published) and ilan-na-ws, ilan-na-rp (the ilan mode with
ILAN_DLB=na-ws or na-rp: seed 002's message-based load balancing of
tasks) and slb (seed 002's baseline: XQueue's static round-robin dispatch
of a tree's tasks to the threads' queues, no stealing; taskloops and loops
as llvm). Ablations of ILAN's parts: thesis+X adds part X to the thesis's
exploration, ilan-X leaves it out of ilan's (X: size, an identity per
iteration count; resample, drift, guards: mold.h's additions; joined as
in thesis+size+drift). The speedup column divides llvm's simulated time by
each policy's (the first policy's when llvm is not run).

Workloads: sim/workloads/README.md describes the format.

exit status: 0; 1 when a file is wrong or the engine fails; 2 for bad
arguments.
"""


def parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    ap = OneLineParser(prog="ilan", formatter_class=raw,
                       description="Run programs on ilan, benchmark it against libgomp and "
                       "LLVM libomp, read its reports.",
                       epilog="ilan COMMAND --help tells more; ilan run --help lists the "
                       "environment variables.\nThe runtime used: %s" % ilan_library())
    ap.add_argument("--version", action="version", version="ilan " + __version__)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    p = sub.add_parser("run", help="run a program on ilan (binds threads unless told otherwise)",
                       formatter_class=raw, epilog=RUN_EPILOG + envvars.help_text(),
                       description="Run a program (built with gcc -fopenmp) on ilan: its "
                       "libgomp.so.1 comes first in LD_LIBRARY_PATH.")
    p.add_argument("--mode", choices=MODES, default="ilan",
                   help="taskloop scheduling (ILAN_TASKLOOP), default ilan")
    p.add_argument("--report", metavar="FILE",
                   help="write the scheduler's report here (ILAN_REPORT; %%p: pid, %%r: MPI rank)")
    p.add_argument("--threads", type=positive_int, help="OMP_NUM_THREADS (default: as set, or one per core)")
    p.add_argument("--no-bind", action="store_true",
                   help="leave threads unbound (OMP_PROC_BIND=false); by default ilan run "
                   "sets OMP_PROC_BIND=true unless a binding variable is set")
    p.add_argument("--no-check", action="store_true",
                   help="skip the check that the program loaded ilan")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- ./app args")
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("bench", help="kernels on libgomp, libomp and ilan's modes")
    p.add_argument("--quick", action="store_true", help="quick sizes (make demo: about a minute on 2 cores)")
    p.add_argument("--size", choices=kernels.SIZES, help="problem sizes (default full, "
                   "quick with --quick; tiny is for tests)")
    p.add_argument("--runtimes", help="comma list out of libgomp,libomp,ilan-ws,ilan-numa,ilan "
                   "(the default set), ilan-na-ws,ilan-na-rp (ILAN_DLB) and ilan-central,ilan-tree "
                   "(ILAN_BARRIER), only when named")
    p.add_argument("--kernels", help="comma list (default all; see --list)")
    p.add_argument("--variants", type=variant_list,
                   help="variants run on every runtime, a comma list out of %s (default "
                   "taskloop,task; all: every variant of each kernel; the static version always runs on "
                   "libgomp as the reference)"
                   % ",".join(known_variants()))
    p.add_argument("--repeat", type=positive_int, help="rounds (default 5; 1 with --size tiny)")
    p.add_argument("--threads", type=thread_list, metavar="N[,N...]",
                   help="OMP_NUM_THREADS, or a comma list (e.g. 1,2,4,16): every kernel runs at "
                   "each count, one row group per count (default: CPUs in the affinity mask, "
                   "and fib also at 1)")
    p.add_argument("--timeout", type=positive_int, default=120, help="seconds before a run counts as hung")
    p.add_argument("--out", help="path of the results without suffix (default "
                   "bench/results/bench-<date>-<host>, ./ilan-results/... when installed)")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--no-chart", action="store_true", help="skip the PNG")
    p.add_argument("--libomp-defaults", action="store_true",
                   help="keep libomp's hidden-helper threads (not disabled)")
    p.add_argument("--list", action="store_true", help="list the kernels and exit")
    p.add_argument("--table-from", metavar="FILE.json",
                   help="print the table of a saved run (rows of --kernels only) and exit")
    p.add_argument("--pair", action="append", type=runtime_pair, metavar="A/B", default=[],
                   help="also print runtime A against runtime B round by round: the median of "
                   "the rounds' ratios A/B and its 95%% interval (repeatable; e.g. ilan/ilan-ws; "
                   "RUNTIME@VARIANT compares one variant with another, e.g. "
                   "ilan@dynamic/libomp@runtime:static_steal)")
    p.set_defaults(fn=cmd_bench)

    p = sub.add_parser("report", help="an ILAN_REPORT file as tables and charts, or an "
                       "ILAN_TRACE file summarised")
    p.add_argument("file")
    p.add_argument("--trace", action="store_true", help="FILE is an ILAN_TRACE file: summarise it")
    p.add_argument("--png", help="chart path (default: FILE with .png; the per-thread chart "
                   "goes beside it as NAME-threads.png)")
    p.add_argument("--top", type=positive_int, default=4, help="taskloops in the chart (default 4)")
    p.set_defaults(fn=cmd_report)

    p = sub.add_parser("noise", help="OS noise: a program under seed 004's thread "
                       "configurations, quiet and beside a CPU hog", formatter_class=raw,
                       epilog=NOISE_EPILOG,
                       description="Run programs (built with gcc -fopenmp) on ilan under several "
                       "thread configurations, with and without a background CPU load, and "
                       "compare run time, context switches, migrations and descheduled time.")
    p.add_argument("--rounds", type=positive_int, default=3, help="runs per configuration and "
                   "load (default 3)")
    p.add_argument("--noise", choices=("pinned", "floating"), default="pinned",
                   help="the load: CPU hogs pinned to --noise-cpu, or floating where the OS "
                   "puts them (default pinned)")
    p.add_argument("--noise-cpu", type=int, metavar="CPU",
                   help="the CPU a pinned hog spins on (default: the last this process may use, "
                   "the core 'one core idle' leaves to the OS)")
    p.add_argument("--noise-hogs", type=positive_int, default=1, metavar="N",
                   help="hog processes (default 1)")
    p.add_argument("--timeout", type=positive_int, default=300, help="seconds before a run "
                   "counts as hung (default 300)")
    p.add_argument("--out", help="path of the results without suffix (default "
                   "bench/results/noise-<date>, ./ilan-results/... when installed)")
    p.add_argument("--png", help="chart path (default: --out with .png)")
    p.add_argument("--no-chart", action="store_true", help="skip the PNG")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- ./app args [-- ./app2 args]")
    p.set_defaults(fn=cmd_noise)

    p = sub.add_parser("topo", help="the machine model as ilan sees it")
    p.add_argument("--threads", type=positive_int, help="OMP_NUM_THREADS for the probe")
    p.set_defaults(fn=cmd_topo)

    p = sub.add_parser("sim", help="simulate workloads on a model of a NUMA machine under each "
                       "taskloop policy", formatter_class=raw, epilog=SIM_EPILOG,
                       description="Run program descriptions on a deterministic model of a NUMA "
                       "machine whose scheduling decisions are made by ilan's own policy code.")
    p.add_argument("--machine", metavar="TOPOLOGY",
                   help="hwloc synthetic description or XML file (default: the parameter "
                   "file's \"topology\")")
    p.add_argument("--params", metavar="FILE",
                   help="machine parameter file (default sim/machines/vm-2core.json)")
    p.add_argument("--policies", type=policies_arg, default=list(sim.DEFAULT_POLICIES),
                   help="comma list out of %s, %s (default: %s)" % (
                       ",".join(sim.POLICIES), sim.ABLATIONS, ",".join(sim.DEFAULT_POLICIES)))
    p.add_argument("--seed", type=seed_arg, default=1, help="every random choice derives from "
                   "it (default 1): the same seed gives the same result")
    p.add_argument("--threads", type=positive_int, metavar="T",
                   help="threads, placed on cores 0..T-1 (default: one per core)")
    p.add_argument("--dlb", type=dlb_arg, metavar="V,S,I,P", help="the message-based "
                   "balancing's N_victim, N_steal, T_interval (idle rounds) and P_local for "
                   "ilan-na-ws and ilan-na-rp (default the runtime's: 1,1,64,1)")
    p.add_argument("--slb-queue", type=positive_int, metavar="N",
                   help="tasks one slb queue holds (default 64)")
    p.add_argument("--json", metavar="OUT", help="write every run's result here")
    p.add_argument("--plots", metavar="DIR", help="write speedup.png (and with --timeline "
                   "timeline-<workload>-<policy>.png) here")
    p.add_argument("--timeline", action="store_true",
                   help="ask the engine for per-thread intervals (in --json, and plotted with --plots)")
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    p.add_argument("workloads", nargs="+", metavar="WORKLOAD.json")
    p.set_defaults(fn=cmd_sim)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    try:
        status: int = args.fn(args)
        return status
    except IlanError as e:
        print("ilan: error: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ilan: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
