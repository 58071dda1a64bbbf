"""`ilan topo`: the machine model as ilan sees it, read from the report of a tiny OpenMP program."""

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from . import IlanError
from .build import compile_c
from .paths import PACKAGE
from .runtimes import ilan_mode

PROBE = PACKAGE / "topo_probe.c"


def _cores(cs: list[int]) -> str:
    return ",".join(str(c) for c in cs)


def describe(topo: dict[str, Any]) -> str:
    """The "topology" part of an ILAN_REPORT document, as readable lines."""
    kind = "what-if model" if topo.get("whatif") else "real machine"
    lines = ["%s (source: %s)" % (kind, topo.get("source", "?")),
             "  %s package(s), %s NUMA node(s), %s last-level cache(s), %s core(s), %s PU(s)"
             % tuple(topo.get(k, "?") for k in ("packages", "nodes", "llcs", "cores", "pus")),
             "  ILAN decides per %s: %d group(s)" % (topo.get("group_kind", "?"),
                                                     len(topo.get("groups", [])))]
    for g in topo.get("groups", []):
        # An unbound thread's group has no place: no node, no cores (not -1).
        node = g.get("node")
        where = "node %s, cores %s" % (node, _cores(g.get("cores", []))) \
            if node is not None and node >= 0 else "no place (an unbound thread)"
        lines.append("    group %s: %s" % (g.get("id"), where))
    lines.append("  NUMA nodes:")
    for n, cs in enumerate(topo.get("node_cores", [])):
        lines.append("    node %d: cores %s" % (n, _cores(cs)))
    dist = topo.get("distances") or []
    if dist:
        lines.append("  distances:")
        lines += ["    " + " ".join("%4s" % d for d in row) for row in dist]
    places = topo.get("places") or []
    lines.append("  %d place(s) (OS CPU ids): %s" % (
        len(places), " ".join("{%s}" % _cores(p) for p in places)))
    return "\n".join(lines)


# The variables that make hwloc load a machine other than this one.
WHATIF_VARIABLES = ("HWLOC_SYNTHETIC", "HWLOC_XMLFILE")


def probe(threads: int | None = None, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run the probe program on this build of ilan with ILAN_REPORT set and
    return the report's "topology" part.  `env` is added to the probe's
    environment; when it names a what-if machine (HWLOC_SYNTHETIC or
    HWLOC_XMLFILE), the caller's own such variables are dropped, so the
    machine asked for is the one loaded."""
    rt = ilan_mode("ilan")
    why = rt.missing()
    if why:
        raise IlanError(why)
    binary = compile_c(PROBE)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        run_env = rt.environ(threads or len(os.sched_getaffinity(0)))
        if env and any(v in env for v in WHATIF_VARIABLES):
            for v in WHATIF_VARIABLES:
                run_env.pop(v, None)
        run_env.update(env or {})
        run_env["ILAN_REPORT"] = report
        p = subprocess.run([str(binary)], env=run_env, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise IlanError("the topology probe failed (status %d): %s\nrebuild ilan (make) "
                            "and try again" % (p.returncode, p.stderr.strip()[-500:]))
        if not os.path.exists(report):
            raise IlanError("the runtime in build/lib did not write a report (ILAN_REPORT=%s "
                            "was ignored): it is an old build; rebuild with make and run "
                            "ilan topo again" % report)
        try:
            doc = json.loads(Path(report).read_text())
        except ValueError as e:
            raise IlanError("the runtime wrote a report that is not JSON (%s); rebuild with "
                            "make and report a bug if it persists" % e) from None
    if "topology" not in doc:
        raise IlanError("the runtime's report has no \"topology\" part; rebuild with make")
    topology: dict[str, Any] = doc["topology"]
    return topology
