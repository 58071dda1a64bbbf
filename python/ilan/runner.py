"""Running the benchmark matrix: every kernel on every runtime, rounds interleaved, each run checked."""

import shlex
import subprocess
import sys
import time
from typing import Any

from .kernels import Kernel, parse_output
from .machine import NOISY, cpu_sample, noise
from .paths import rel
from .runtimes import Runtime

Job = tuple[Kernel, str | None, Runtime]   # kernel, variant (None: overhead program), runtime
Run = dict[str, Any]                        # a run record (see run_one)

MAIN_VARIANTS = ("taskloop", "task")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def plan(kernels: list[Kernel], runtimes: list[Runtime],
         variants: tuple[str, ...] | list[str] = MAIN_VARIANTS) -> list[Job]:
    """The jobs of one round, as (kernel, variant, runtime): each kernel's
    `variants` (or its main one) on every runtime, runtimes innermost so that
    machine noise hits them alike; plus, as the reference line, the `omp for
    schedule(static)` version on libgomp (or the first runtime) when that
    variant is not run on every runtime anyway.  Overhead programs run all
    their rows in one job (variant None)."""
    jobs: list[Job] = []
    for k in kernels:
        if k.kind == "overhead":
            jobs += [(k, None, rt) for rt in runtimes]
            continue
        vs = [v for v in k.variants if v in variants] or [k.main_variant]
        if "static" in k.variants and "static" not in vs and runtimes:
            ref = next((rt for rt in runtimes if rt.name == "libgomp"), runtimes[0])
            jobs.append((k, "static", ref))
        for v in vs:
            jobs += [(k, v, rt) for rt in runtimes]
    return jobs


def describe(cmd: list[str], env: dict[str, str], runtime: Runtime) -> str:
    """The command line that reproduces a run by hand."""
    keys = ["OMP_NUM_THREADS", "LD_PRELOAD", "LD_LIBRARY_PATH"] + sorted(runtime.env)
    pre = ["%s=%s" % (k, shlex.quote(env[k])) for k in keys if k in env]
    return " ".join(pre + [shlex.quote(rel(c)) for c in cmd])


def run_one(kernel: Kernel, variant: str | None, runtime: Runtime, cmd: list[str], size: str,
            threads: int, timeout: int) -> Run:
    """Run one job once.  Returns a run record: status "ok" with its
    measurements, or "failed" with a reason that says how to reproduce."""
    argv = cmd + kernel.argv(variant, size)
    env = runtime.environ(threads)
    rec: Run = {"kernel": kernel.name, "variant": variant, "runtime": runtime.name,
                "threads": threads, "argv": [rel(a) for a in argv], "status": "failed",
                "reason": None, "measurements": []}
    again = "reproduce with: " + describe(argv, env, runtime)
    before, t0 = cpu_sample(), time.time()
    try:
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        rec["reason"] = "timed out after %d s (a hang?); %s" % (timeout, again)
        return rec
    except OSError as e:
        rec["reason"] = "could not start: %s; %s" % (e, again)
        return rec
    rec["seconds"] = round(time.time() - t0, 3)
    rec["foreign_cpu"], rec["steal"] = noise(before, cpu_sample())
    err = [l for l in p.stderr.splitlines() if l.strip()]
    reported: str | None
    try:
        reported, path, ms = parse_output(kernel, p.stdout)
    except ValueError as e:
        reported, path, ms = None, "?", []
        if p.returncode == 0:
            rec["reason"] = "%s; %s" % (e, again)
            return rec
    rec["runtime_self"] = reported
    rec["measurements"] = ms
    wrong = [m for m in ms if m.get("verified") == 0]
    if wrong:
        m = wrong[0]
        rec["reason"] = ("wrong result: checksum %s, serial %s; %s"
                         % (m.get("checksum"), m.get("expected"), again))
    elif p.returncode != 0:
        rec["reason"] = "exit status %d%s; %s" % (p.returncode, ": " + err[-1] if err else "", again)
    elif reported is not None and runtime.check_identity(reported, path):
        rec["reason"] = runtime.check_identity(reported, path)
    else:
        rec["status"] = "ok"
    return rec


def bench(kernels: list[Kernel], runtimes: list[Runtime], size: str, repeat: int, threads: int,
          timeout: int, variants: tuple[str, ...] | list[str] = MAIN_VARIANTS) -> list[Run]:
    """Run the matrix `repeat` rounds; return the run records.  A job that
    fails is not run again in later rounds (a hang would cost its timeout
    each time); progress goes to stderr."""
    cmds = {k.name: k.build() for k in kernels}
    jobs = plan(kernels, runtimes, variants)
    runs: list[Run] = []
    failed: set[tuple[str, str | None, str]] = set()
    total, done = len(jobs) * repeat, 0
    for rnd in range(repeat):
        for k, v, rt in jobs:
            done += 1
            key = (k.name, v, rt.name)
            if key in failed:
                continue
            rec = run_one(k, v, rt, cmds[k.name], size, threads, timeout)
            rec["round"] = rnd
            runs.append(rec)
            what = "[%d/%d] round %d/%d: %s%s on %s" % (
                done, total, rnd + 1, repeat, k.name, " " + v if v else "", rt.name)
            if rec["status"] != "ok":
                failed.add(key)
                log("%s: FAILED: %s" % (what, rec["reason"]))
                continue
            shown = ", ".join("%s%.4g %s" % (m["variant"] + " " if v is None else "",
                                             m["value"], m["unit"])
                              for m in rec["measurements"][:3])
            # shorter runs are below the kernel's tick accounting: no verdict
            busy = rec["seconds"] >= 0.2 and (rec["foreign_cpu"] > NOISY or rec["steal"] > NOISY)
            log("%s: %s%s" % (what, shown, " (machine busy)" if busy else ""))
    return runs
