"""Running one test binary on one runtime with a timeout and judging it as DejaGnu would."""

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .directives import RunPlan
from .tcl import are_to_python

# Inherited variables that would change which runtime or which settings a
# test sees; each test gets exactly what its directives ask for instead.
_CLEARED_PREFIXES = ("OMP_", "GOMP_", "ILAN_", "KMP_")
_CLEARED = ("LD_LIBRARY_PATH", "LD_PRELOAD")


@dataclass(frozen=True)
class Runtime:
    """Where a run takes libgomp.so.1 from. library_dir None: the system's
    libgomp; taskloop_mode: ILAN_TASKLOOP's value, None for ilan's default."""

    name: str
    library_dir: Path | None = None
    taskloop_mode: str | None = None

    @property
    def label(self) -> str:
        return f"{self.name} (ILAN_TASKLOOP={self.taskloop_mode})" if self.taskloop_mode else self.name


@dataclass(frozen=True)
class Outcome:
    """passed, or why not (reason); the run's seconds and the end of its output."""

    passed: bool
    reason: str
    seconds: float
    output_tail: str


def environment_for(plan: RunPlan, runtime: Runtime) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in _CLEARED and not key.startswith(_CLEARED_PREFIXES)
    }
    env.update(LC_ALL="C", LANG="C")  # as libgomp_init sets them
    env.update(plan.environment)
    if runtime.library_dir is not None:
        env["LD_LIBRARY_PATH"] = str(runtime.library_dir)
    if runtime.taskloop_mode is not None:
        env["ILAN_TASKLOOP"] = runtime.taskloop_mode
    return env


def judge(plan: RunPlan, returncode: int | None, output: str, timeout_seconds: float) -> tuple[bool, str]:
    """DejaGnu's verdict on a run: the exit status (inverted by dg-shouldfail;
    a timeout always fails) and the joined dg-output patterns, searched in
    the whole output as a Tcl regexp would be (approximated, see tcl.py)."""
    if returncode is None:
        return False, f"timeout after {timeout_seconds:g} s"
    if plan.should_fail and returncode == 0:
        return False, "exit code 0 but dg-shouldfail expects a failure"
    if not plan.should_fail and returncode != 0:
        if returncode < 0:
            return False, f"killed by {signal.Signals(-returncode).name}"
        return False, f"exit code {returncode}"
    if plan.output_patterns and not plan.output_expected_to_fail:
        pattern = are_to_python("".join(plan.output_patterns))
        if not re.search(pattern, output, re.DOTALL):
            return False, "output does not match dg-output"
    return True, "ok"


def run(binary: Path, plan: RunPlan, runtime: Runtime, timeout_seconds: float) -> Outcome:
    """Run in its own process group so a timeout kills every thread and child."""
    timeout = plan.timeout_seconds if plan.timeout_seconds is not None else timeout_seconds
    start = time.monotonic()
    process = subprocess.Popen(
        [str(binary)],
        cwd=binary.parent,
        env=environment_for(plan, runtime),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        raw, _ = process.communicate(timeout=timeout)
        returncode: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raw, _ = process.communicate()
        returncode = None
    seconds = time.monotonic() - start
    output = raw.decode(errors="replace")
    passed, reason = judge(plan, returncode, output, timeout)
    return Outcome(passed, reason, seconds, output[-2000:])
