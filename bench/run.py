#!/usr/bin/env python3
"""Construct-overhead benchmark: one gcc -fopenmp binary on three runtimes.

Builds bench/overhead/syncbench.c into build/bench/syncbench (if missing or
older than its source), then runs that same binary on
  libgomp  the system libgomp.so.1 (ilan's build/lib removed from LD_LIBRARY_PATH)
  libomp   LD_PRELOAD=/usr/lib/llvm-14/lib/libomp.so
  ilan     LD_LIBRARY_PATH=<repo>/build/lib
in round-robin rounds (libgomp, libomp, ilan, libgomp, ...) so that machine
noise hits all runtimes alike.  Each run reports, per construct, the median
overhead over its inner repetitions; the result per runtime is the median of
those medians over the rounds.  Every run must say which runtime it really ran
on (its "runtime_self" line); a mismatch is an error.

    python3 bench/run.py --quick --threads 2 --markdown

--suite tasks runs the tasking benchmarks of bench/tasks/ instead (fib with a
task per call on 1 and N threads, taskloop overhead EPCC-style, a taskloop
over an array against omp for), on the same three runtimes; a runtime whose
run fails or hangs is reported as FAILED in the table instead of stopping
the whole run.
"""

import argparse
import datetime
import json
import os
import platform
import resource
import shlex
import socket
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_DIR = os.path.join(REPO, "bench")
SRC = os.path.join(BENCH_DIR, "overhead", "syncbench.c")
COMMON = os.path.join(BENCH_DIR, "common.h")
BIN_DIR = os.path.join(REPO, "build", "bench")
BIN = os.path.join(BIN_DIR, "syncbench")
ILAN_LIB_DIR = os.path.join(REPO, "build", "lib")
LIBOMP = "/usr/lib/llvm-14/lib/libomp.so"
RUNTIMES = ("libgomp", "libomp", "ilan")
CFLAGS = ["-fopenmp", "-O2", "-Wall"]

# LLVM 14's libomp reserves hidden-helper threads; with them enabled we saw,
# in about half of the runs on 2-CPU VMs, both team threads share one CPU
# (barrier 36 us instead of 0.15 us).  gcc binaries never use hidden-helper
# tasks (target nowait), so switching them off is neutral for what we measure.
# --libomp-defaults keeps libomp's own defaults instead.
LIBOMP_ENV = {"LIBOMP_USE_HIDDEN_HELPER_TASK": "0"}

# A run counts as disturbed when other processes (or the hypervisor, "steal")
# took more than this share of the machine's CPU time while it ran.
NOISY = 0.05


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def die(msg):
    log("run.py: error: " + msg)
    sys.exit(1)


# ------------------------------------------------------------------ build

def build(src=SRC, binary=BIN, deps=(COMMON,)):
    """Compile a benchmark if the binary is missing or older than its sources."""
    newest = max(os.path.getmtime(f) for f in (src, __file__) + tuple(deps))
    if os.path.exists(binary) and os.path.getmtime(binary) >= newest:
        return
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    cmd = ["gcc"] + CFLAGS + ["-o", binary, src, "-ldl"]
    log("building: " + " ".join(shlex.quote(c) for c in cmd))
    try:
        subprocess.run(cmd, check=True)
    except FileNotFoundError:
        die("gcc not found: install gcc 12 (apt-get install gcc)")
    except subprocess.CalledProcessError:
        die("compiling %s failed (see the compiler output above)" % src)


def result_base(benchmark, prefix, args, command, repeat, machine):
    """Where a suite's JSON result goes, and the fields every result has."""
    now = datetime.datetime.now()
    out_path = args.json or os.path.join(
        REPO, "bench", "results",
        "%s-%s-%s.json" % (prefix, now.strftime("%Y%m%d-%H%M%S"), machine["host"]))
    return out_path, {
        "benchmark": benchmark,
        "date": now.isoformat(timespec="seconds"),
        "command": command,
        "threads": args.threads,
        "repeat": repeat,
        "quick": args.quick,
        "machine": machine,
        "environment": {k: v for k, v in os.environ.items()
                        if k.startswith(("OMP_", "GOMP_", "KMP_", "LIBOMP_", "ILAN_"))},
    }


def save_result(out_path, result, noisy, t_start, total=None):
    """Write a suite's JSON result and say where it went (and whether other
    load disturbed some runs)."""
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    if noisy:
        of = "" if total is None else " of %d" % total
        log("warning: %d%s runs were disturbed by other load: %s. The medians "
            "resist a few such runs; for numbers to publish, rerun on an idle "
            "machine or raise --repeat." % (len(noisy), of, "; ".join(noisy)))
    log("done in %.0f s; raw numbers in %s" % (time.time() - t_start,
                                              os.path.relpath(out_path)))


# ------------------------------------------------------------ environments

def strip_ilan(path_list):
    """LD_LIBRARY_PATH without ilan's build/lib."""
    keep = [p for p in path_list.split(":")
            if p and os.path.realpath(p) != os.path.realpath(ILAN_LIB_DIR)]
    return ":".join(keep)


def runtime_env(rt, threads, libomp_defaults):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    env.pop("LD_PRELOAD", None)
    lib_path = strip_ilan(env.get("LD_LIBRARY_PATH", ""))
    if rt == "ilan":
        lib_path = ILAN_LIB_DIR + (":" + lib_path if lib_path else "")
    elif rt == "libomp":
        env["LD_PRELOAD"] = LIBOMP
        if not libomp_defaults:
            for k, v in LIBOMP_ENV.items():
                env.setdefault(k, v)
    if lib_path:
        env["LD_LIBRARY_PATH"] = lib_path
    else:
        env.pop("LD_LIBRARY_PATH", None)
    return env


def available_runtimes(wanted):
    """The runtimes to run, and a note for each one that is skipped."""
    run, notes = [], {}
    for rt in wanted:
        if rt == "libomp" and not os.path.exists(LIBOMP):
            notes[rt] = ("skipped: %s not found (apt-get install libomp-14-dev)"
                         % LIBOMP)
        elif rt == "ilan" and not os.path.exists(
                os.path.join(ILAN_LIB_DIR, "libgomp.so.1")):
            notes[rt] = ("skipped: %s/libgomp.so.1 not found (build ilan first: make)"
                         % os.path.relpath(ILAN_LIB_DIR, REPO))
        else:
            run.append(rt)
    return run, notes


# ------------------------------------------------------------------ running

class RunFailed(Exception):
    """A benchmark run that failed, hung or printed no identity (soft mode)."""


def run_once(rt, args, env):
    """Run the binary once; return (runtime_self line, config, {row: result})."""
    cmd = [BIN, "--reps", str(args.reps)] if args.reps else [BIN]
    if args.quick:
        cmd.append("--quick")
    if args.rows:
        cmd += ["--only", args.rows]
    return run_binary(rt, cmd, env, args.timeout)


def run_binary(rt, cmd, env, timeout, soft=False):
    """Run one benchmark command and parse its JSON lines.  A failure stops
    the program, or with soft=True raises RunFailed with the reason."""
    def fail(msg):
        if soft:
            raise RunFailed(msg)
        die(msg)
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        fail("%s run timed out after %d s (a hang in the runtime? run the "
             "binary by hand: %s)" % (rt, timeout, describe(rt, cmd, env)))
    if p.returncode != 0:
        tail = "\n".join((p.stderr or "").splitlines()[-25:])
        fail("%s run failed with status %d; stderr tail:\n%s\nreproduce with: %s"
             % (rt, p.returncode, tail, describe(rt, cmd, env)))
    self_line, config, rows = None, None, {}
    for line in p.stdout.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if "runtime_self" in obj:
            self_line = obj
        elif "config" in obj:
            config = obj["config"]
        elif "row" in obj:
            rows[obj["row"]] = obj
    if self_line is None:
        fail("%s run printed no runtime_self line; output:\n%s" % (rt, p.stdout))
    check_runtime(rt, self_line, env)
    if p.stderr.strip():
        for l in p.stderr.strip().splitlines()[:5]:
            log("  [%s stderr] %s" % (rt, l))
    return self_line, config, rows


def describe(rt, cmd, env):
    pre = []
    for k in ("OMP_NUM_THREADS", "LD_PRELOAD", "LD_LIBRARY_PATH") + tuple(LIBOMP_ENV):
        if k in env and env.get(k) != os.environ.get(k):
            pre.append("%s=%s" % (k, shlex.quote(env[k])))
    return " ".join(pre + [shlex.quote(c) for c in cmd])


def check_runtime(rt, self_line, env):
    got = self_line.get("runtime_self", "")
    ok = got.startswith("ilan") if rt == "ilan" else got == rt
    if ok:
        return
    if rt == "ilan":
        die("the ilan run reported %r (library %s): LD_LIBRARY_PATH=%s was not "
            "effective or that library is not ilan. Check that build/lib/libgomp.so.1 is ilan and exports "
            "ilan_version (nm -D build/lib/libgomp.so.1 | grep ilan_version), "
            "then rebuild ilan: make" % (got, self_line.get("path"),
                                         env.get("LD_LIBRARY_PATH")))
    if rt == "libomp":
        die("the libomp run reported %r: LD_PRELOAD=%s was not effective "
            "(is it really LLVM libomp? ldd the binary)" % (got, LIBOMP))
    die("the libgomp run reported %r (library %s): unset LD_PRELOAD and remove "
        "ilan from LD_LIBRARY_PATH, or check /etc/ld.so.preload"
        % (got, self_line.get("path")))


# ------------------------------------------------------------- noise probe

def cpu_sample():
    """(busy jiffies, steal jiffies, our children's CPU seconds, wall time)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...
    busy = v[0] + v[1] + v[2] + v[5] + v[6]
    steal = v[7] if len(v) > 7 else 0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return busy, steal, ru.ru_utime + ru.ru_stime, time.time()


def noise(before, after):
    """Share of the machine's CPU time that others used, and steal share."""
    hz = os.sysconf("SC_CLK_TCK")
    ncpu = os.cpu_count() or 1
    wall = max(after[3] - before[3], 1e-6)
    busy = (after[0] - before[0]) / hz
    ours = after[2] - before[2]
    foreign = max(0.0, busy - ours) / (wall * ncpu)
    steal = (after[1] - before[1]) / hz / (wall * ncpu)
    return round(foreign, 3), round(steal, 3)


# ------------------------------------------------------------ machine info

def machine_info():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "host": socket.gethostname(),
        "cpu_model": cpu,
        "cpus_online": os.cpu_count(),
        "cpus_affinity": len(os.sched_getaffinity(0)),
        "kernel": platform.release(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "gcc": first_line(["gcc", "--version"]),
    }


def first_line(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def runtime_versions(present):
    out = {}
    gomp = None
    for d in ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64"):
        if os.path.exists(os.path.join(d, "libgomp.so.1")):
            gomp = os.path.realpath(os.path.join(d, "libgomp.so.1"))
            break
    out["libgomp"] = {"file": gomp, "gcc": first_line(["gcc", "--version"])}
    if os.path.exists(LIBOMP):
        out["libomp"] = {"file": os.path.realpath(LIBOMP)}
    lib = os.path.join(ILAN_LIB_DIR, "libgomp.so.1")
    if os.path.exists(lib):
        out["ilan"] = {"file": os.path.realpath(lib)}
    return out


# ------------------------------------------------------------------ report

def fmt(x):
    if x is None:
        return "–"
    if abs(x) >= 100:
        return "%.0f" % x
    if abs(x) >= 10:
        return "%.1f" % x
    return "%.2f" % x


def ratio(a, b):
    """a/b when both are positive overheads, else None (ratio meaningless)."""
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return a / b


def plain(summary, row_order, notes, threads):
    """A fixed-width table for the terminal."""
    head = ["construct", "unit"] + ["%s" % rt for rt in RUNTIMES] + \
        ["ilan/libgomp", "ilan/libomp"]
    body = []
    for row in row_order:
        vals = {rt: summary.get(rt, {}).get(row, {}).get("median") for rt in RUNTIMES}
        unit = next((summary[rt][row]["unit"] for rt in RUNTIMES
                     if row in summary.get(rt, {})), "us")
        r1 = ratio(vals["ilan"], vals["libgomp"])
        r2 = ratio(vals["ilan"], vals["libomp"])
        body.append([row, unit] + [fmt(vals[rt]) if rt not in notes else "skipped"
                                   for rt in RUNTIMES] +
                    ["%.2f" % r1 if r1 else "-", "%.2f" % r2 if r2 else "-"])
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    lines = ["%d threads, median overhead (us per construct, us/loop per loop)" % threads]
    for r in [head] + body:
        lines.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))
    for rt, note in notes.items():
        lines.append("%s: %s" % (rt, note))
    return "\n".join(lines)


def markdown(summary, row_order, notes, machine, threads, command, n_noisy, n_runs):
    lines = []
    lines.append("Machine: %s, %d CPUs (affinity), kernel %s; %d threads; "
                 "median of %d interleaved runs per runtime%s; command: `%s`"
                 % (machine["cpu_model"], machine["cpus_affinity"],
                    machine["kernel"], threads, n_runs // max(1, len(summary)),
                    " (%d of %d runs disturbed by other load)" % (n_noisy, n_runs)
                    if n_noisy else "", command))
    lines.append("")
    lines.append("| construct | unit | libgomp us | libomp us | ilan us "
                 "| ilan/libgomp | ilan/libomp |")
    lines.append("|---|---|---:|---:|---:|---:|---:|")
    for row in row_order:
        vals = {rt: summary.get(rt, {}).get(row, {}).get("median") for rt in RUNTIMES}
        unit = next((summary[rt][row]["unit"] for rt in RUNTIMES
                     if row in summary.get(rt, {})), "us")
        cells = [fmt(vals[rt]) if rt not in notes else "skipped" for rt in RUNTIMES]
        r1 = ratio(vals["ilan"], vals["libgomp"])
        r2 = ratio(vals["ilan"], vals["libomp"])
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            row.replace("|", "\\|"), unit, cells[0], cells[1], cells[2],
            "%.2f" % r1 if r1 else "–", "%.2f" % r2 if r2 else "–"))
    for rt, note in notes.items():
        lines.append("")
        lines.append("%s: %s" % (rt, note))
    return "\n".join(lines)


# ------------------------------------------------------------- tasks suite

TASKS_DIR = os.path.join(REPO, "bench", "tasks")
# (benchmark, thread counts: "N" = --threads); fib also runs on one thread.
TASKS_BENCHES = (("fib", (1, "N")), ("taskloop_overhead", ("N",)),
                 ("taskloop_array", ("N",)))


def short_reason(reason):
    """The first line of a failure, with the program's last stderr line."""
    lines = [l.strip() for l in reason.splitlines() if l.strip()]
    if len(lines) > 1 and lines[0].endswith("stderr tail:"):
        tail = [l for l in lines[1:] if not l.startswith("reproduce with:")]
        return lines[0][:-len("; stderr tail:")] + (": " + tail[-1] if tail else "")
    return lines[0] if lines else "?"


def tasks_table(summary, row_order, units, better, failed, notes, partial,
                machine, command, n_runs, md):
    """The tasks suite's table: one row per measurement, the three runtimes,
    and ilan's ratios (for "higher is better" rows ratio > 1 means ilan is
    faster; for the others ratio < 1 means ilan is cheaper)."""
    def cell(rt, row):
        if rt in notes:
            return "skipped"
        if rt in failed:
            return "FAILED"
        v = summary.get(rt, {}).get(row, {}).get("median")
        return "FAILED" if v is None and failed.get(rt + "/" + row) else fmt(v)

    def rat(row, other):
        i = summary.get("ilan", {}).get(row, {}).get("median")
        o = summary.get(other, {}).get(row, {}).get("median")
        r = ratio(i, o)
        return "%.2f" % r if r else ("–" if md else "-")

    head = ["benchmark", "unit", "better"] + list(RUNTIMES) + \
        ["ilan/libgomp", "ilan/libomp"]
    body = [[row, units[row], better[row]] + [cell(rt, row) for rt in RUNTIMES] +
            [rat(row, "libgomp"), rat(row, "libomp")] for row in row_order]
    foot = ["%s: %s" % (rt, n) for rt, n in notes.items()]
    foot += ["%s: FAILED: %s" % (rt, short_reason(reason))
             for rt, reason in list(failed.items()) + list(partial.items())
             if "/" not in rt]
    if md:
        lines = ["Machine: %s, %d CPUs (affinity), kernel %s; median of %d "
                 "interleaved runs per runtime; command: `%s`"
                 % (machine["cpu_model"], machine["cpus_affinity"],
                    machine["kernel"], n_runs, command), ""]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|---|---|---|" + "---:|" * (len(head) - 3))
        for r in body:
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
        if foot:
            lines += [""] + foot
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    lines = ["tasking benchmarks, median of %d runs per runtime" % n_runs]
    for r in [head] + body:
        lines.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines + foot)


def main_tasks(args, repeat, wanted):
    """--suite tasks: build bench/tasks/*.c, run them round-robin on the
    runtimes, summarize like the overhead suite; failures are reported."""
    binaries = {}
    for name, _ in TASKS_BENCHES:
        binaries[name] = os.path.join(BIN_DIR, name)
        build(os.path.join(TASKS_DIR, name + ".c"), binaries[name],
              (COMMON,))
    present, notes = available_runtimes(wanted)
    for rt, note in notes.items():
        log("%s: %s" % (rt, note))
    if not present:
        die("no runtime left to run")
    command = "python3 bench/run.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    machine = machine_info()
    jobs = []
    for name, counts in TASKS_BENCHES:
        for c in counts:
            jobs.append((name, args.threads if c == "N" else c))
    jobs = [j for i, j in enumerate(jobs) if j not in jobs[:i]]

    raw = {rt: [] for rt in present}
    failed = {}          # runtime -> first failure; "rt/row" -> 1
    selfs, row_order, units, better, noisy = {}, [], {}, {}, []
    t_start = time.time()
    for rnd in range(repeat):
        for rt in present:
            for name, threads in jobs:
                if (rt, name) in failed.get("_jobs", set()):
                    continue
                cmd = [binaries[name]]
                if args.quick:
                    cmd.append("--quick")
                if args.reps:
                    cmd += ["--reps", str(args.reps)]
                env = runtime_env(rt, threads, args.libomp_defaults)
                log("round %d/%d: %s %s, %d threads ..." % (rnd + 1, repeat, rt,
                                                           name, threads))
                before = cpu_sample()
                t0 = time.time()
                try:
                    self_line, config, rows = run_binary(rt, cmd, env, args.timeout,
                                                         soft=True)
                except RunFailed as e:
                    log("    FAILED: " + str(e).replace("\n", "\n    "))
                    failed.setdefault(rt, "%s (%d threads): %s" % (name, threads, e))
                    failed.setdefault("_jobs", set()).add((rt, name))
                    continue
                foreign, steal = noise(before, cpu_sample())
                if foreign > NOISY or steal > NOISY:
                    noisy.append("%s %s round %d (others %.0f%%, steal %.0f%%)"
                                 % (rt, name, rnd + 1, 100 * foreign, 100 * steal))
                selfs[rt] = self_line
                raw[rt].append({"round": rnd, "benchmark": name, "threads": threads,
                                "seconds": round(time.time() - t0, 3),
                                "foreign_cpu": foreign, "steal": steal,
                                "config": config, "rows": rows})
                for r, obj in rows.items():
                    if r not in row_order:
                        row_order.append(r)
                    units[r] = obj.get("unit", "")
                    better[r] = obj.get("better", "lower")
                log("    " + ", ".join("%s %s %s" % (r, fmt(o["median"]), o["unit"])
                                       for r, o in rows.items()))
    failed.pop("_jobs", None)
    # A runtime that failed some benchmark keeps the rows it did produce;
    # only a runtime with no rows at all shows FAILED everywhere.
    summary = {}
    for rt in present:
        summary[rt] = {}
        for row in row_order:
            runs = [run["rows"][row] for run in raw[rt] if row in run["rows"]]
            if not runs:
                if rt in failed:
                    failed[rt + "/" + row] = 1
                continue
            meds = [x["median"] for x in runs]
            summary[rt][row] = {"unit": runs[0]["unit"], "better": better[row],
                                "median": statistics.median(meds),
                                "min": min(x["min"] for x in runs),
                                "max": max(x["max"] for x in runs),
                                "run_medians": meds}
    shown_failed = {k: v for k, v in failed.items()
                    if "/" in k or not summary.get(k)}
    # a runtime with some rows but a failed benchmark: say so under the table
    partial = {k: v for k, v in failed.items() if "/" not in k and summary.get(k)}

    out_path, result = result_base("tasks", "tasks", args, command, repeat, machine)
    result.update({
        "binaries": {n: os.path.relpath(b, REPO) for n, b in binaries.items()},
        "runtimes": {rt: {"runtime_self": selfs.get(rt), **runtime_versions(present).get(rt, {})}
                     for rt in present},
        "skipped": notes,
        "failed": {k: v for k, v in failed.items() if "/" not in k},
        "noisy_runs": noisy,
        "summary": summary,
        "raw": raw,
    })
    save_result(out_path, result, noisy, t_start)
    print(tasks_table(summary, row_order, units, better, shown_failed, notes,
                      partial, machine, command, repeat, args.markdown))
    return 1 if failed else 0


# -------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(
        description="Overhead of OpenMP constructs on libgomp, libomp and ilan "
                    "(same binary, EPCC-style method).")
    ap.add_argument("--suite", choices=("overhead", "tasks"), default="overhead",
                    help="overhead: construct overheads (syncbench, default); "
                         "tasks: the tasking benchmarks of bench/tasks/")
    ap.add_argument("--quick", action="store_true",
                    help="fewer repetitions (about a minute for all runtimes)")
    ap.add_argument("--threads", type=int,
                    default=len(os.sched_getaffinity(0)),
                    help="OMP_NUM_THREADS (default: CPUs in the affinity mask)")
    ap.add_argument("--rows", default=None,
                    help="comma list of rows, e.g. 'barrier,for schedule(dynamic,1)' "
                         "or aliases parallel_for,static,static1,dynamic1,"
                         "dynamic16,guided1")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES),
                    help="comma list out of libgomp,libomp,ilan (default: all)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="process-level repetitions per runtime, interleaved "
                         "(default 5, 3 with --quick); result = median of medians")
    ap.add_argument("--reps", type=int, default=None,
                    help="outer repetitions inside each run (default 20, 10 with --quick)")
    ap.add_argument("--json", default=None,
                    help="where to write all raw numbers (default "
                         "bench/results/overhead-<date>-<host>.json)")
    ap.add_argument("--markdown", action="store_true",
                    help="print a Markdown table (for the README) on stdout")
    ap.add_argument("--libomp-defaults", action="store_true",
                    help="do not set LIBOMP_USE_HIDDEN_HELPER_TASK=0 for libomp")
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds before one run counts as hung (default 300)")
    args = ap.parse_args()

    if args.threads < 1:
        die("--threads must be >= 1")
    repeat = args.repeat if args.repeat is not None else (3 if args.quick else 5)
    if repeat < 1:
        die("--repeat must be >= 1")
    wanted = [r.strip() for r in args.runtimes.split(",") if r.strip()]
    for r in wanted:
        if r not in RUNTIMES:
            die("unknown runtime %r (choose from %s)" % (r, ", ".join(RUNTIMES)))

    if args.suite == "tasks":
        sys.exit(main_tasks(args, repeat, wanted))

    build()
    present, notes = available_runtimes(wanted)
    for rt, note in notes.items():
        log("%s: %s" % (rt, note))
    if not present:
        die("no runtime left to run")

    command = "python3 bench/run.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    machine = machine_info()
    if args.threads > machine["cpus_affinity"]:
        log("note: %d threads on %d CPUs: oversubscribed, overheads will be large"
            % (args.threads, machine["cpus_affinity"]))

    raw = {rt: [] for rt in present}          # per runtime: list of runs
    noisy = []                                # runs disturbed by others
    selfs = {}
    row_order = []
    t_start = time.time()
    total = repeat * len(present)
    done = 0
    for rnd in range(repeat):
        for rt in present:
            done += 1
            log("[%d/%d] round %d/%d: %s ..." % (done, total, rnd + 1, repeat, rt))
            t0 = time.time()
            env = runtime_env(rt, args.threads, args.libomp_defaults)
            before = cpu_sample()
            self_line, config, rows = run_once(rt, args, env)
            foreign, steal = noise(before, cpu_sample())
            selfs[rt] = self_line
            raw[rt].append({"round": rnd, "seconds": round(time.time() - t0, 3),
                            "foreign_cpu": foreign, "steal": steal,
                            "config": config, "rows": rows})
            if foreign > NOISY or steal > NOISY:
                noisy.append("%s round %d (others %.0f%%, steal %.0f%%)"
                             % (rt, rnd + 1, 100 * foreign, 100 * steal))
                log("    note: machine busy during this run: other processes "
                    "used %.0f%% of the CPUs, steal %.0f%%"
                    % (100 * foreign, 100 * steal))
            for r in rows:
                if r not in row_order:
                    row_order.append(r)
            log("    %s: %.1f s, %s" % (rt, time.time() - t0, ", ".join(
                "%s %.2f" % (r, rows[r]["median"]) for r in list(rows)[:4]) + ", ..."))

    summary = {}
    for rt in present:
        summary[rt] = {}
        for row in row_order:
            runs = [run["rows"][row] for run in raw[rt] if row in run["rows"]]
            if not runs:
                continue
            meds = [x["median"] for x in runs]
            summary[rt][row] = {
                "unit": runs[0]["unit"],
                "median": statistics.median(meds),
                "min": min(x["min"] for x in runs),
                "max": max(x["max"] for x in runs),
                "run_medians": meds,
            }

    ratios = {}
    for row in row_order:
        g = summary.get("libgomp", {}).get(row, {}).get("median")
        o = summary.get("libomp", {}).get(row, {}).get("median")
        i = summary.get("ilan", {}).get(row, {}).get("median")
        ratios[row] = {"ilan/libgomp": ratio(i, g), "ilan/libomp": ratio(i, o),
                       "libomp/libgomp": ratio(o, g)}

    versions = runtime_versions(present)
    if "libomp" in versions:
        versions["libomp"]["env"] = {} if args.libomp_defaults else LIBOMP_ENV
    out_path, result = result_base("syncbench", "overhead", args, command, repeat, machine)
    result.update({
        "binary": {"path": os.path.relpath(BIN, REPO),
                   "build": "gcc " + " ".join(CFLAGS) + " ... -ldl"},
        "runtimes": {rt: {"runtime_self": selfs.get(rt), **versions.get(rt, {})}
                     for rt in present},
        "skipped": notes,
        "noisy_runs": noisy,
        "summary": summary,
        "ratios": ratios,
        "raw": raw,
    })
    save_result(out_path, result, noisy, t_start, total)

    if args.markdown:
        print(markdown(summary, row_order, notes, machine, args.threads, command,
                       len(noisy), total))
    else:
        print(plain(summary, row_order, notes, args.threads))


if __name__ == "__main__":
    main()
