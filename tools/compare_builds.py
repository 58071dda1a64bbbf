#!/usr/bin/env python3
"""Compares two builds of ilan on the benchmark kernels in one run: each kernel's taskloop variant, rounds interleaved (before, after, before, ...), medians and spreads, and the after/before ratio with its spread. Usage: compare_builds.py BEFORE_LIB_DIR AFTER_LIB_DIR [--rounds N] [--size quick|tiny] [--threads T] [--modes ilan,ws] [--kernels a,b]."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from ilan.kernels import KERNELS, Kernel, parse_output  # noqa: E402


def run(kernel: Kernel, cmd: list[str], lib: str, mode: str, threads: int) -> float:
    """One run's time in seconds of kernel's command on the ilan library in `lib`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "ILAN_", "GOMP_"))}
    env.update(LD_LIBRARY_PATH=lib, OMP_NUM_THREADS=str(threads), ILAN_TASKLOOP=mode)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit("%s failed on %s: %s" % (" ".join(cmd), lib, p.stderr.strip()))
    reported, _, rows = parse_output(kernel, p.stdout)
    if not reported.startswith("ilan") or not rows[0]["verified"]:
        raise SystemExit("%s: not verified on ilan (%s)" % (" ".join(cmd), reported))
    return float(rows[0]["value"])


KERNELS_BY_NAME = {k.name: k for k in KERNELS}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--size", default="quick", choices=("tiny", "quick"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--modes", default="ilan,ws")
    ap.add_argument("--kernels", default=",".join(k.name for k in KERNELS if k.kind == "kernel"))
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    names = args.kernels.split(",")
    modes = args.modes.split(",")
    jobs = []
    for name in names:
        k = KERNELS_BY_NAME[name]
        cmd = k.build() + k.argv(k.main_variant, args.size)
        for mode in modes:
            jobs.append((k, mode, cmd))
    times: dict[tuple[str, str, str], list[float]] = {}
    for r in range(args.rounds):
        print("round %d/%d" % (r + 1, args.rounds), file=sys.stderr)
        for k, mode, cmd in jobs:
            for which, lib in (("before", args.before), ("after", args.after)):
                t = run(k, cmd, lib, mode, args.threads)
                times.setdefault((k.name, mode, which), []).append(t)
    print("| kernel | mode | before (ms) | after (ms) | after/before | spread of the ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for k, mode, _ in jobs:
        name = k.name
        b = times[(name, mode, "before")]
        a = times[(name, mode, "after")]
        ratios = sorted(x / y for x, y in zip(a, b, strict=True))  # paired by round
        lo, hi = ratios[len(ratios) // 4], ratios[(3 * len(ratios)) // 4]
        print("| %s | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.3f | %.3f-%.3f |" % (
            name, mode, 1e3 * statistics.median(b), 1e3 * min(b), 1e3 * max(b),
            1e3 * statistics.median(a), 1e3 * min(a), 1e3 * max(a),
            statistics.median(ratios), lo, hi))
    return 0


if __name__ == "__main__":
    sys.exit(main())
