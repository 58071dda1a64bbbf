"""The OpenMP runtimes compared: how each is selected, whether it is installed, and the check that a run really used it."""

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import IlanError
from .paths import how_to_get_library, lib_dir, rel

LIBOMP = "/usr/lib/llvm-14/lib/libomp.so"

# LLVM 14's libomp starts hidden-helper threads; on 2-CPU VMs they made about
# half of the runs put both team threads on one CPU.  gcc binaries never use
# hidden-helper tasks, so switching them off is neutral for what we measure.
LIBOMP_ENV = {"LIBOMP_USE_HIDDEN_HELPER_TASK": "0"}

MODES = ("ilan", "numa", "ws")


@dataclass(frozen=True)
class Runtime:
    """One runtime as the benchmarks run it."""
    name: str                 # as shown in tables: libgomp, libomp, ilan-ws, ...
    family: str               # what the program must report: libgomp | libomp | ilan
    library: str = ""         # the file that must exist ("" = the system's)
    env: dict[str, str] = field(default_factory=dict)   # variables set for the run
    preload: bool = False     # LD_PRELOAD the library (libomp)
    default: bool = True      # run when --runtimes names none (False: only when named)

    def missing(self) -> str | None:
        """None when installed, else why not and what to do."""
        if self.family == "ilan" and not os.path.exists(ilan_library()):
            return "%s not found: %s" % (rel(ilan_library()), how_to_get_library())
        if self.preload and not os.path.exists(self.library):
            return "%s not found (apt-get install libomp-14-dev)" % self.library
        return None

    def environ(self, threads: int | None = None, base: Mapping[str, str] | None = None
                ) -> dict[str, str]:
        """The environment of a run on this runtime with `threads` threads
        (None: OMP_NUM_THREADS as it is)."""
        env = dict(os.environ if base is None else base)
        if threads:
            env["OMP_NUM_THREADS"] = str(threads)
        env.pop("LD_PRELOAD", None)
        env.pop("ILAN_TASKLOOP", None)
        env.pop("ILAN_BARRIER", None)
        paths = [p for p in env.get("LD_LIBRARY_PATH", "").split(":")
                 if p and os.path.realpath(p) != os.path.realpath(lib_dir())]
        if self.family == "ilan":
            paths.insert(0, str(lib_dir()))
        if self.preload:
            env["LD_PRELOAD"] = self.library
        for k, v in self.env.items():
            if k in LIBOMP_ENV:
                env.setdefault(k, v)      # the user's own setting wins
            else:
                env[k] = v
        if paths:
            env["LD_LIBRARY_PATH"] = ":".join(paths)
        else:
            env.pop("LD_LIBRARY_PATH", None)
        return env

    def check_identity(self, reported: str, path: str = "?") -> str | None:
        """None when the program ran on this runtime, else what went wrong."""
        if reported.split()[0:1] == [self.family]:
            return None
        if self.family == "ilan":
            return ("the run reported %r (library %s), not ilan: LD_LIBRARY_PATH=%s was not "
                    "effective or that library is not ilan; check with "
                    "nm -D %s | grep ilan_version, or %s"
                    % (reported, path, lib_dir(), rel(ilan_library()), how_to_get_library()))
        if self.family == "libomp":
            return ("the run reported %r: LD_PRELOAD=%s was not effective (is it LLVM libomp?)"
                    % (reported, self.library))
        if self.family != "libgomp":   # a reference program (tbb): it names itself
            return "the run reported %r, not %s: is it the %s reference program?" % (
                reported, self.family, self.family)
        return ("the run reported %r (library %s): unset LD_PRELOAD and remove ilan from "
                "LD_LIBRARY_PATH, or check /etc/ld.so.preload" % (reported, path))


def ilan_library() -> str:
    return str(lib_dir() / "libgomp.so.1")


def ilan_mode(mode: str) -> Runtime:
    """ilan with ILAN_TASKLOOP=mode; the ilan mode is called plain `ilan`."""
    return Runtime("ilan" if mode == "ilan" else "ilan-" + mode, "ilan",
                   env={"ILAN_TASKLOOP": mode})


def ilan_dlb(strategy: str) -> Runtime:
    """ilan with ILAN_DLB=strategy (message-based load balancing), run
    only when named: ilan-na-ws, ilan-na-rp."""
    return Runtime("ilan-" + strategy, "ilan", env={"ILAN_DLB": strategy}, default=False)


def ilan_barrier(kind: str) -> Runtime:
    """ilan with ILAN_BARRIER=kind (the team barrier), run only when named:
    ilan-central, ilan-tree."""
    return Runtime("ilan-" + kind, "ilan", env={"ILAN_BARRIER": kind}, default=False)


def all_runtimes(libomp_defaults: bool = False) -> list[Runtime]:
    """Every runtime `ilan bench` knows, in table order."""
    return ([Runtime("libgomp", "libgomp"),
             Runtime("libomp", "libomp", LIBOMP, {} if libomp_defaults else dict(LIBOMP_ENV),
                     preload=True)] + [ilan_mode(m) for m in ("ws", "numa", "ilan")]
            + [ilan_dlb(s) for s in ("na-ws", "na-rp")]
            + [ilan_barrier(k) for k in ("central", "tree")])


def select(names: list[str], known: list[Runtime]) -> tuple[list[Runtime], dict[str, str]]:
    """The runtimes named (when names is empty, those run by default),
    split into those installed and {name: note} for those skipped."""
    by_name = {r.name: r for r in known}
    for n in names:
        if n not in by_name:
            raise IlanError("unknown runtime %r: choose from %s" % (n, ", ".join(by_name)))
    chosen = [r for r in known if r.name in names] if names else [r for r in known if r.default]
    present: list[Runtime] = []
    skipped: dict[str, str] = {}
    for r in chosen:
        why = r.missing()
        if why:
            skipped[r.name] = "skipped: " + why
        else:
            present.append(r)
    return present, skipped
