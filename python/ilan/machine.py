"""What machine a benchmark ran on, and how much other load disturbed each run."""

import os
import platform
import resource
import socket
import subprocess
import time

from .runtimes import LIBOMP, ilan_library

# A run counts as disturbed when other processes (or the hypervisor, "steal")
# took more than this share of the machine's CPU time while it ran.
NOISY = 0.05


def first_line(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def machine_info() -> dict[str, object]:
    """CPU model, CPU counts, kernel, gcc: what a reader needs to judge the numbers."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    return {"host": socket.gethostname(), "cpu_model": cpu, "cpus_online": os.cpu_count(),
            "cpus_affinity": len(os.sched_getaffinity(0)), "kernel": platform.release(),
            "os": platform.platform(), "python": platform.python_version(),
            "gcc": first_line(["gcc", "--version"])}


def library_files() -> dict[str, str]:
    """The runtime library files used, resolved."""
    out = {}
    for d in ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64"):
        if os.path.exists(os.path.join(d, "libgomp.so.1")):
            out["libgomp"] = os.path.realpath(os.path.join(d, "libgomp.so.1"))
            break
    for name, path in (("libomp", LIBOMP), ("ilan", ilan_library())):
        if os.path.exists(path):
            out[name] = os.path.realpath(path)
    return out


def cpu_sample() -> tuple[int, int, float, float]:
    """(busy jiffies, steal jiffies, our children's CPU seconds, wall time)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...
    busy = v[0] + v[1] + v[2] + v[5] + v[6]
    steal = v[7] if len(v) > 7 else 0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return busy, steal, ru.ru_utime + ru.ru_stime, time.time()


def noise(before: tuple[int, int, float, float], after: tuple[int, int, float, float]
          ) -> tuple[float, float]:
    """Share of the machine's CPU time that others used, and the steal share."""
    hz = os.sysconf("SC_CLK_TCK")
    ncpu = os.cpu_count() or 1
    wall = max(after[3] - before[3], 1e-6)
    busy = (after[0] - before[0]) / hz
    ours = after[2] - before[2]
    foreign = max(0.0, busy - ours) / (wall * ncpu)
    steal = (after[1] - before[1]) / hz / (wall * ncpu)
    return round(foreign, 3), round(steal, 3)
