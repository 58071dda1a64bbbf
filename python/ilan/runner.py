"""Running the benchmark matrix: every kernel on every runtime, rounds interleaved, each run checked."""

import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .kernels import Kernel, parse_output
from .machine import NOISY, cpu_sample, noise
from .paths import rel
from .runtimes import Runtime

Job = tuple[Kernel, str | None, Runtime, int]   # kernel, variant (None: overhead program), runtime, threads
Run = dict[str, Any]                        # a run record (see run_one)

MAIN_VARIANTS = ("taskloop", "task")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def thread_counts(kernel: Kernel, threads: Sequence[int], chosen: bool = True) -> list[int]:
    """The team sizes `kernel` runs at: `threads` when they were chosen
    (--threads); else the default ones plus the kernel's `also_threads`
    (fib: 1, to show what a second thread brings), fewest first."""
    if chosen or not kernel.also_threads:
        return list(dict.fromkeys(threads))
    return sorted(set(threads) | set(kernel.also_threads))


def plan(kernels: list[Kernel], runtimes: list[Runtime],
         variants: tuple[str, ...] | list[str] = MAIN_VARIANTS, threads: Sequence[int] = (2,),
         chosen: bool = True, references: Mapping[str, Runtime] | None = None) -> list[Job]:
    """The jobs of one round, as (kernel, variant, runtime, threads): for
    each kernel and each of its thread counts (see thread_counts), first its
    reference lines, then its `variants` (or its main one) on every runtime,
    runtimes innermost so that machine noise hits them alike; "all" in
    `variants` means every variant of each kernel, and a variant a runtime
    does not understand (Kernel.variant_families) is left out for it.  Reference
    lines: the `omp for schedule(static)` version on libgomp (or the first
    runtime) when that variant is not run on every runtime anyway, and the
    kernel's `reference` program (fib: oneTBB) when `references` has its
    runtime (the reference program is installed).  Overhead programs run
    all their rows in one job (variant None), or one job per entry of their
    variant_env."""
    refs = references or {}
    jobs: list[Job] = []
    for k in kernels:
        for t in thread_counts(k, threads, chosen):
            if k.kind == "overhead":
                envs: list[str | None] = list(k.variant_env) or [None]
                jobs += [(k, v, rt, t) for v in envs for rt in runtimes if k.runs_on(v, rt)]
                continue
            vs = ([v for v in k.variants if v in variants or "all" in variants]
                  or [k.main_variant])
            if "static" in k.variants and "static" not in vs and runtimes:
                ref = next((rt for rt in runtimes if rt.name == "libgomp"), runtimes[0])
                jobs.append((k, "static", ref, t))
            if k.reference and k.reference.runtime in refs:
                jobs.append((k, k.main_variant, refs[k.reference.runtime], t))
            for v in vs:
                jobs += [(k, v, rt, t) for rt in runtimes if k.runs_on(v, rt)]
    return jobs


def describe(cmd: list[str], env: dict[str, str], runtime: Runtime,
             extra: Sequence[str] = ()) -> str:
    """The command line that reproduces a run by hand (extra: more variables
    the run set, such as a variant's OMP_SCHEDULE)."""
    keys = (["OMP_NUM_THREADS", "LD_PRELOAD", "LD_LIBRARY_PATH"] + sorted(runtime.env)
            + sorted(extra))
    pre = ["%s=%s" % (k, shlex.quote(env[k])) for k in keys if k in env]
    return " ".join(pre + [shlex.quote(rel(c)) for c in cmd])


def run_one(kernel: Kernel, variant: str | None, runtime: Runtime, cmd: list[str], size: str,
            threads: int, timeout: int) -> Run:
    """Run one job once.  Returns a run record: status "ok" with its
    measurements, or "failed" with a reason that says how to reproduce."""
    argv = cmd + kernel.argv(variant, size)
    env = runtime.environ(threads)
    extra = kernel.env_for(variant)
    env.update(extra)
    rec: Run = {"kernel": kernel.name, "variant": variant, "runtime": runtime.name,
                "threads": threads, "argv": [rel(a) for a in argv], "status": "failed",
                "reason": None, "measurements": []}
    again = "reproduce with: " + describe(argv, env, runtime, list(extra))
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


def is_reference(kernel: Kernel, runtime: Runtime) -> bool:
    """True when this job runs the kernel's reference program, not the kernel."""
    return kernel.reference is not None and runtime.name == kernel.reference.runtime


def bench(kernels: list[Kernel], runtimes: list[Runtime], size: str, repeat: int,
          threads: int | Sequence[int], timeout: int,
          variants: tuple[str, ...] | list[str] = MAIN_VARIANTS, chosen: bool = True,
          references: Mapping[str, Runtime] | None = None) -> list[Run]:
    """Run the matrix `repeat` rounds; return the run records.  threads: one
    team size or several (each run records its own); chosen: whether they
    were given by the user (else kernels add their `also_threads`);
    references: the reference runtimes that can run (see plan).  Every
    other round runs the jobs in reverse order, so that of two runtimes
    compared round by round (table.paired) neither always runs first: a
    drift within a round, or a run that warms the machine for the next,
    then biases no side.  A job that fails is not run again in later
    rounds (a hang would cost its timeout each time); progress goes to
    stderr."""
    counts = [threads] if isinstance(threads, int) else list(threads)
    jobs = plan(kernels, runtimes, variants, counts, chosen, references)
    cmds = {k.name: k.build() for k in kernels}
    ref_cmds = {k.name: k.reference.build() for k, _, rt, _ in jobs
                if k.reference and is_reference(k, rt)}
    several = len({t for *_, t in jobs}) > 1
    runs: list[Run] = []
    failed: set[tuple[str, str | None, str, int]] = set()
    total, done = len(jobs) * repeat, 0
    for rnd in range(repeat):
        for k, v, rt, t in (jobs if rnd % 2 == 0 else jobs[::-1]):
            done += 1
            key = (k.name, v, rt.name, t)
            if key in failed:
                continue
            cmd = ref_cmds[k.name] if is_reference(k, rt) else cmds[k.name]
            rec = run_one(k, v, rt, cmd, size, t, timeout)
            rec["round"] = rnd
            runs.append(rec)
            what = "[%d/%d] round %d/%d: %s%s on %s%s" % (
                done, total, rnd + 1, repeat, k.name, " " + v if v else "", rt.name,
                ", %d thread%s" % (t, "" if t == 1 else "s") if several else "")
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
