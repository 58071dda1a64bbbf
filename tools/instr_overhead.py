#!/usr/bin/env python3
"""What measurement costs: the overhead programs (fib(30) with a task per call, the barrier, taskloop overhead) run on the build before the counters, and on this build with counting off, ILAN_COUNTERS=runtime, ILAN_COUNTERS=os and ILAN_TRACE, rounds interleaved; medians, and each level's ratio to `off`.

Usage: tools/instr_overhead.py --before OLD_BUILD/lib [--lib build/lib] [--bench build/bench] [--rounds 7]
       [--threads N] [--programs fib,syncbench,taskloop_overhead] [--levels before,off,runtime,os,trace]
       [--fib-reps N] [--out FILE.json]
`before` may also be a build of this tree with the hooks compiled out
(cmake -DILAN_INSTR_HOOKS=OFF): then off/before is what the hooks cost when off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (program, arguments, rows it reports that are kept)
PROGRAMS: list[tuple[str, list[str], list[str]]] = [
    ("fib", ["--n", "30", "--reps", "1"], ["fib(30)"]),
    ("syncbench", ["--quick", "--only", "barrier"], ["barrier"]),
    ("taskloop_overhead", ["--quick"], ["taskloop num_tasks(20)", "taskloop num_tasks(200)",
                                        "taskloop grainsize(1)"]),
]


def measure(exe: Path, args: list[str], env: dict[str, str]) -> dict[str, float]:
    """The program's rows: fib's time in ms, the others' medians in us."""
    p = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit("%s failed: %s" % (exe, p.stderr.strip()[-500:]))
    out: dict[str, float] = {}
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            fields = dict(f.split("=", 1) for f in line.split()[1:])
            out["fib(30)"] = float(fields["time_s"]) * 1e3
        elif line.startswith("{") and '"row"' in line:
            row = json.loads(line)
            out[row["row"]] = float(row["median"])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="lib folder of the build before the counters")
    ap.add_argument("--lib", default=str(ROOT / "build" / "lib"))
    ap.add_argument("--bench", default=str(ROOT / "build" / "bench"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", default="2")
    ap.add_argument("--programs", default="fib,syncbench,taskloop_overhead",
                    help="comma list of the programs to run (default all three)")
    ap.add_argument("--levels", default="before,off,runtime,os,trace",
                    help="comma list of the levels to run; before and off are always run")
    ap.add_argument("--fib-reps", type=int, default=1, help="fib's --reps (default 1)")
    ap.add_argument("--out", help="results file (default bench/results/instr-overhead-DATE.json)")
    a = ap.parse_args()
    chosen = [p for p in PROGRAMS if p[0] in a.programs.split(",")]
    chosen = [(p, ["--n", "30", "--reps", str(a.fib_reps)] if p == "fib" else args, rows)
              for p, args, rows in chosen]
    trace = Path(tempfile.mkdtemp()) / "trace.json"
    levels: list[tuple[str, str, dict[str, str]]] = [
        ("before", a.before, {}),
        ("off", a.lib, {}),
        ("runtime", a.lib, {"ILAN_COUNTERS": "runtime"}),
        ("os", a.lib, {"ILAN_COUNTERS": "os"}),
        ("trace", a.lib, {"ILAN_TRACE": str(trace)}),
    ]
    wanted = {"before", "off"} | set(a.levels.split(","))
    levels = [lv for lv in levels if lv[0] in wanted]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "ILAN_", "GOMP_"))}
    base["OMP_NUM_THREADS"] = a.threads
    samples: dict[str, dict[str, list[float]]] = {name: {} for name, _, _ in levels}
    for r in range(a.rounds):
        for name, lib, extra in levels:
            env = dict(base, LD_LIBRARY_PATH=lib, **extra)
            for prog, args, rows in chosen:
                got = measure(Path(a.bench) / prog, args, env)
                for row in rows:
                    samples[name].setdefault(row, []).append(got[row])
        print("round %d/%d done" % (r + 1, a.rounds), file=sys.stderr)
    rows = [row for _, _, rs in chosen for row in rs]
    med = {name: {row: statistics.median(samples[name][row]) for row in rows} for name in samples}
    head = "| row | unit | " + " | ".join(n for n, _, _ in levels) + " | off/before |" + \
        "".join(" %s/off |" % n for n, _, _ in levels[2:])
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for row in rows:
        unit = "ms" if row == "fib(30)" else "us"
        cells = ["%.4g" % med[n][row] for n, _, _ in levels]
        ratios = ["%.3f" % (med["off"][row] / med["before"][row])]
        ratios += ["%.3f" % (med[n][row] / med["off"][row]) for n, _, _ in levels[2:]]
        print("| %s | %s | %s | %s |" % (row, unit, " | ".join(cells), " | ".join(ratios)))
    out = Path(a.out) if a.out else ROOT / "bench" / "results" / (
        "instr-overhead-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
    out.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M:%S"),
                               "command": " ".join(sys.argv), "threads": a.threads,
                               "rounds": a.rounds, "medians": med, "samples": samples},
                              indent=1) + "\n")
    print("results: %s" % out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
