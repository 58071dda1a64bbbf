"""`ilan sim`: workload descriptions run on a model of a NUMA machine by the simulator engine, once per taskloop policy, as tables, JSON and charts.

The engine (`sim/engine/`, built into build/sim/ilan-sim-engine) and its
input format are described in sim/README.md. This module reads the three
things a run needs, checks them, and writes the engine's input:

- the machine's shape, read through the runtime's own model: the topology
  probe (`topo.probe`) run with HWLOC_SYNTHETIC or HWLOC_XMLFILE set;
- the machine's speeds and costs, a parameter file (sim/machines/*.json):
  every name of sim/README.md's parameter table (its optional ones when
  used), plus "name", "topology" (the hwloc synthetic description of the
  machine), "sources" (where each number comes from) and, optionally,
  "unbound" (true: the modelled team runs unbound, each thread a group of
  its own, as the runtime groups it);
- the programs, workload files (sim/workloads/*.json).

Workload files
--------------

One JSON object::

    {"name": "npb-cg-like",
     "models": "one sentence: what it models and from where",
     "notes": "optional free text: how the figures were derived",
     "program": [CONSTRUCT, ...]}

A CONSTRUCT is one of (each maps to one engine line, `repeat` to a
`repeat`/`end` pair around its body)::

    {"kind": "taskloop", "name": N, "iters": I, "ns": X, "bytes": B, "data": D,
     "profile": P, "num_tasks": K, "grainsize": G, "reuse": R}
    {"kind": "loop", "name": N, "iters": I, "ns": X, "bytes": B, "data": D,
     "profile": P, "schedule": S, "chunk": C, "reuse": R}
    {"kind": "tree", "name": N, "shape": SHAPE, "n": N, "ns": X, "bytes": B,
     "data": D, "cutoff": C, "q": Q, "m": M, "seed": U}
    {"kind": "barrier"}
    {"kind": "repeat", "count": COUNT, "body": [CONSTRUCT, ...]}

- name: letters, digits and `_.:-`; it is the construct's identity (as a
  call site is the runtime's), so every construct of one name must be
  defined alike (the same kind and fields).
- iters: an integer >= 1, or a list of them (execution k has the (k mod
  length)-th count).
- ns: mean compute time of one iteration, in ns, on the development VM's
  core (a machine file's compute_scale converts it); >= 0.
- bytes: memory traffic of one iteration in bytes, counted as STREAM
  counts it (each array element read or written once), so that a
  machine's STREAM triad figure is its node bandwidth; >= 0, default 0.
- data: static (default), twisted, interleave, single or node:K.
- profile: uniform (default), linear or peak:W:H (0 < W <= 1, H > 0).
- num_tasks, grainsize (taskloop): 0 (default) when the clause is absent;
  not both.
- schedule (loop): static (default), dynamic, guided, adaptive,
  static_steal, fac2, tss or af; chunk: 0 (default) when absent.
- reuse: true when every execution re-reads the same data (default false).
- atomic_ns (taskloop, loop): optional, > 0 for an atomic update per
  iteration on a line every running piece of the construct shares (the
  interference of sim/README.md); absent or 0: none.
- tree: a task tree started by thread 0 (sim/README.md): shape fib (n <=
  60), sort (n elements, leaves of at most cutoff > 0) or uts (n root
  children, then m children with probability q, drawn from seed); ns and
  bytes per call, element or node; data as for loops (default static);
  cutoff, q, m and seed default to 0.
- count (repeat): an integer >= 1; body: a non-empty list.
- note: optional free text on any construct.
"""

import json
import os
import re
import shlex
import subprocess
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import IlanError, __version__
from .paths import REPO, build_dir, installed, lib_dir, rel

POLICIES = ("ws", "llvm", "numa", "ilan", "thesis", "ilan-na-ws", "ilan-na-rp", "slb")
# What runs without --policies: the runtime's three modes and seed 000's
# baseline; `thesis` (the published exploration alone), the ilan mode
# under seed 002's message-based load balancing (ILAN_DLB=na-ws, na-rp)
# and `slb` (seed 002's baseline, XQueue's round-robin dispatch of tree
# tasks, with no stealing; taskloops and loops as llvm) only when named.
DEFAULT_POLICIES = ("ws", "llvm", "numa", "ilan")
# The parts of ILAN an ablation names: `thesis+X` adds part X to the
# thesis's exploration, `ilan-X` leaves it out of ilan's (each part once;
# the engine's sim_policy_parse): an identity per iteration count, and
# mold.h's re-sampling, drift and the other guards.
ABLATION_PARTS = ("size", "resample", "drift", "guards")
ABLATIONS = "thesis+X..., ilan-X... (X: %s)" % ", ".join(ABLATION_PARTS)
FORMAT_LINE = "ilan-sim 1"

# sim/README.md's parameter table, in its order (the engine's input keeps it),
# with the smallest value each may take: a 0 bandwidth or latency would divide
# by zero, while a cost of 0 is a machine where that operation is free.
PARAMS: tuple[tuple[str, str, bool], ...] = (
    # (name, meaning, may be zero)
    ("compute_scale", "multiplies every ns", False),
    ("node_bandwidth_gbs", "one NUMA node's memory bandwidth, GB/s", False),
    ("local_latency_ns", "a read from the core's own node", False),
    ("lines_in_flight", "cache-line reads a core keeps in flight", False),
    ("llc_mb", "one last-level cache, MiB", True),
    ("llc_bandwidth_gbs", "one core's bandwidth from its last-level cache, GB/s", False),
    ("task_create_ns", "make and queue one task", True),
    ("task_start_ns", "take one task from the thread's own queue or range and start it", True),
    ("claim_ns", "one claim from a shared loop counter", True),
    ("steal_ns", "a successful steal from a thread of the same node", True),
    ("steal_fail_ns", "a look at a victim with nothing to take", True),
    ("wake_ns", "waking a sleeping thread", True),
    ("barrier_ns", "one level of a barrier tree", True),
    ("launch_ns", "the creator's cost to launch one group's range (ILAN)", True),
    ("pop_ns", "one pop from the owner's own loop range (adaptive)", True),
)
# Parameters a file may leave out (the engine takes them as 0: the
# mechanism is then absent), written to the engine only when given.
OPTIONAL_PARAMS: tuple[tuple[str, str], ...] = (
    ("speed_spread", "standard deviation of the log of a core's speed over one interval"),
    ("speed_interval_us", "how long one draw of a core's speed holds, us"),
)
PARAM_NAMES = tuple(p[0] for p in PARAMS)
OPTIONAL_NAMES = tuple(p[0] for p in OPTIONAL_PARAMS)
# "unbound": true when the team the file models runs unbound (OMP_PROC_BIND
# unset, as `ilan bench` runs): each thread is then a group of its own.
PARAM_META = ("name", "topology", "sources", "unbound")
DEFAULT_PARAMS = REPO / "sim" / "machines" / "vm-2core.json"

DATA_KINDS = ("static", "twisted", "interleave", "single")
PROFILES = ("uniform", "linear")
SCHEDULES = ("static", "dynamic", "guided", "adaptive", "static_steal", "fac2", "tss", "af")
SHAPES = ("fib", "sort", "uts")
FIB_MAX = 60   # the engine's limit: fib(n) makes about 1.6^n tasks
NAME_RE = re.compile(r"^[A-Za-z0-9_.:-]+$")

Doc = dict[str, Any]


# ---------------------------------------------------------------- the machine

@dataclass(frozen=True)
class Machine:
    """The shape of a machine as the runtime's model sees it: each core's
    node, last-level cache and package (cores in model order), and the
    nodes' distance matrix (10 = local)."""
    topology: str
    source: str
    core_node: tuple[int, ...]
    core_llc: tuple[int, ...]
    core_package: tuple[int, ...]
    distances: tuple[tuple[int, ...], ...]

    @property
    def cores(self) -> int:
        return len(self.core_node)

    @property
    def nodes(self) -> int:
        return len(self.distances)

    def as_json(self) -> Doc:
        return {"topology": self.topology, "source": self.source, "cores": self.cores,
                "nodes": self.nodes, "packages": len(set(self.core_package)),
                "llcs": len(set(self.core_llc)), "core_node": list(self.core_node),
                "core_llc": list(self.core_llc), "core_package": list(self.core_package),
                "distances": [list(r) for r in self.distances]}


def topology_env(desc: str) -> dict[str, str]:
    """The environment that makes hwloc (and so the runtime) load `desc`:
    HWLOC_XMLFILE for a path to an XML file, else HWLOC_SYNTHETIC."""
    if desc.endswith(".xml") or os.path.sep in desc and os.path.exists(desc):
        if not os.path.isfile(desc):
            raise IlanError("--machine %s: no such XML file (give an hwloc XML file or a "
                            "synthetic description such as \"pack:2 numa:4 core:8 pu:1\")" % desc)
        return {"HWLOC_XMLFILE": os.path.abspath(desc)}
    return {"HWLOC_SYNTHETIC": desc}


def _int_list(t: Doc, key: str, n: int | None) -> list[int]:
    v = t.get(key)
    if not isinstance(v, list) or not all(isinstance(x, int) for x in v) or (n is not None and len(v) != n):
        raise IlanError("the runtime's topology report has no valid %r (an older build?): "
                        "rebuild with make" % key)
    return v


def machine_from_topology(t: Doc, desc: str) -> Machine:
    """A Machine from the "topology" part of an ILAN_REPORT document."""
    node_cores = t.get("node_cores")
    if not isinstance(node_cores, list) or not all(isinstance(cs, list) for cs in node_cores):
        raise IlanError("the runtime's topology report has no \"node_cores\" (an older build?): "
                        "rebuild with make")
    llc = _int_list(t, "core_llc", None)
    ncores = len(llc)
    package = _int_list(t, "core_package", ncores)
    core_node = [-1] * ncores
    for n, cs in enumerate(node_cores):
        for c in cs:
            if not isinstance(c, int) or not 0 <= c < ncores or core_node[c] != -1:
                raise IlanError("the runtime's topology report lists core %r in node %d, which is "
                                "not one of its %d cores or is in two nodes" % (c, n, ncores))
            core_node[c] = n
    if -1 in core_node:
        raise IlanError("the runtime's topology report puts core %d in no NUMA node"
                        % core_node.index(-1))
    dist = t.get("distances")
    nnodes = len(node_cores)
    if not isinstance(dist, list) or len(dist) != nnodes or not all(
            isinstance(r, list) and len(r) == nnodes and all(isinstance(d, int) and d > 0 for d in r)
            for r in dist):
        raise IlanError("the runtime's topology report has no %dx%d \"distances\" matrix: "
                        "rebuild with make" % (nnodes, nnodes))
    return Machine(desc, str(t.get("source", desc)), tuple(core_node), tuple(llc), tuple(package),
                   tuple(tuple(r) for r in dist))


def read_machine(desc: str) -> Machine:
    """The machine `desc` (an hwloc synthetic description or XML file) as
    the runtime's topology code builds it."""
    from . import topo
    env = topology_env(desc)
    t = topo.probe(1, env)
    if not t.get("whatif"):
        raise IlanError("hwloc could not load --machine %r (the runtime fell back to this "
                        "machine): check the synthetic description (e.g. \"pack:2 numa:4 core:8 "
                        "pu:1\") or the XML file" % desc)
    return machine_from_topology(t, desc)


# ------------------------------------------------------------- the parameters

def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def check_params(doc: Any, where: str) -> Doc:
    """The parameter document `doc` (from file `where`) checked: every
    parameter present, a number within its range; only the parameters and
    "name", "topology", "sources" as keys. Returns it unchanged."""
    if not isinstance(doc, dict):
        raise IlanError("%s: a parameter file is a JSON object, not %s" % (where, type(doc).__name__))
    unknown = [k for k in doc if k not in PARAM_NAMES and k not in OPTIONAL_NAMES
               and k not in PARAM_META]
    if unknown:
        raise IlanError("%s: unknown key%s %s (the parameters are those of sim/README.md's table, "
                        "plus name, topology and sources)"
                        % (where, "s" if len(unknown) > 1 else "", ", ".join(map(repr, unknown))))
    missing = [p for p in PARAM_NAMES if p not in doc]
    if missing:
        raise IlanError("%s: missing parameter %s (%s)%s" % (
            where, missing[0], dict((p[0], p[1]) for p in PARAMS)[missing[0]],
            "; also missing: " + ", ".join(missing[1:]) if len(missing) > 1 else ""))
    for name, _, zero_ok in PARAMS:
        v = doc[name]
        if not _is_number(v) or v < 0 or (v == 0 and not zero_ok) or v != v or v == float("inf"):
            raise IlanError("%s: %s must be a number %s 0, not %r" % (
                where, name, ">=" if zero_ok else ">", v))
    for name in OPTIONAL_NAMES:
        v = doc.get(name, 0)
        if not _is_number(v) or v < 0 or v != v or v == float("inf"):
            raise IlanError("%s: %s must be a number >= 0, not %r" % (where, name, v))
    if not isinstance(doc.get("unbound", False), bool):
        raise IlanError("%s: unbound must be true or false, not %r" % (where, doc["unbound"]))
    for key in ("name", "topology"):
        if key in doc and not isinstance(doc[key], str):
            raise IlanError("%s: %s must be a string, not %r" % (where, key, doc[key]))
    if "sources" in doc and (not isinstance(doc["sources"], list)
                             or not all(isinstance(s, str) for s in doc["sources"])):
        raise IlanError("%s: sources must be a list of strings" % where)
    return doc


def load_json(path: str | Path, what: str) -> Any:
    try:
        return json.loads(Path(path).read_text())
    except OSError as e:
        raise IlanError("cannot read %s %s: %s" % (what, path, e.strerror or e)) from None
    except ValueError as e:
        raise IlanError("%s is not valid JSON (%s)" % (path, e)) from None


def load_params(path: str | Path) -> Doc:
    return check_params(load_json(path, "the parameter file"), str(path))


# --------------------------------------------------------------- the workloads

@dataclass(frozen=True)
class Work:
    """A taskloop or a loop construct."""
    kind: str
    name: str
    iters: tuple[int, ...]
    ns: float
    bytes: float
    data: str
    profile: str
    num_tasks: int = 0
    grainsize: int = 0
    schedule: str = "static"
    chunk: int = 0
    reuse: bool = False
    atomic_ns: float = 0.0
    where: str = field(default="", compare=False)


@dataclass(frozen=True)
class Tree:
    """A task tree (fib, sort or uts)."""
    name: str
    shape: str
    n: int
    ns: float
    bytes: float
    data: str
    cutoff: int = 0
    q: float = 0.0
    m: int = 0
    seed: int = 0
    where: str = field(default="", compare=False)
    kind: str = field(default="tree", init=False)


@dataclass(frozen=True)
class Barrier:
    where: str = field(default="", compare=False)


@dataclass(frozen=True)
class Repeat:
    count: int
    body: tuple["Construct", ...]
    where: str = field(default="", compare=False)


Construct = Work | Tree | Barrier | Repeat


@dataclass(frozen=True)
class Workload:
    name: str
    models: str
    program: tuple[Construct, ...]
    path: str = ""


class _Checker:
    """Checks one workload document; errors name the file and the field."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.defined: dict[str, Work | Tree] = {}

    def fail(self, where: str, why: str) -> IlanError:
        return IlanError("%s: %s: %s" % (self.path, where, why))

    def keys(self, obj: Doc, where: str, required: tuple[str, ...], optional: tuple[str, ...]) -> None:
        for k in required:
            if k not in obj:
                raise self.fail(where, "missing field %r" % k)
        unknown = [k for k in obj if k not in required and k not in optional]
        if unknown:
            raise self.fail(where, "unknown field %r (allowed: %s)" % (
                unknown[0], ", ".join(required + optional)))

    def integer(self, v: Any, where: str, least: int) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or v < least:
            raise self.fail(where, "must be a whole number >= %d, not %s" % (least, json.dumps(v)))
        return v

    def number(self, v: Any, where: str) -> float:
        if not _is_number(v) or v < 0 or v != v or v == float("inf"):
            raise self.fail(where, "must be a number >= 0, not %s" % json.dumps(v))
        return float(v)

    def iters(self, v: Any, where: str) -> tuple[int, ...]:
        if isinstance(v, list):
            if not v:
                raise self.fail(where, "an empty list: give at least one iteration count")
            return tuple(self.integer(x, "%s[%d]" % (where, i), 1) for i, x in enumerate(v))
        return (self.integer(v, where, 1),)

    def data(self, v: Any, where: str) -> str:
        if isinstance(v, str):
            if v in DATA_KINDS:
                return v
            m = re.fullmatch(r"node:(\d+)", v)
            if m:
                return "node:%d" % int(m.group(1))
        raise self.fail(where, "%s is not one of %s or node:K" % (json.dumps(v), ", ".join(DATA_KINDS)))

    def profile(self, v: Any, where: str) -> str:
        if isinstance(v, str):
            if v in PROFILES:
                return v
            m = re.fullmatch(r"peak:([0-9.eE+-]+):([0-9.eE+-]+)", v)
            if m:
                try:
                    w, h = float(m.group(1)), float(m.group(2))
                except ValueError:
                    w, h = -1.0, -1.0
                if 0 < w <= 1 and h > 0 and h != float("inf"):
                    return v
                raise self.fail(where, "%s: peak:W:H needs 0 < W <= 1 and H > 0" % json.dumps(v))
        raise self.fail(where, "%s is not uniform, linear or peak:W:H" % json.dumps(v))

    def construct(self, obj: Any, where: str) -> Construct:
        if not isinstance(obj, dict):
            raise self.fail(where, "a construct is an object with a \"kind\", not %s" % json.dumps(obj))
        kind = obj.get("kind")
        if kind == "barrier":
            self.keys(obj, where, ("kind",), ("note",))
            return Barrier(where)
        if kind == "repeat":
            self.keys(obj, where, ("kind", "count", "body"), ("note",))
            count = self.integer(obj["count"], where + ".count", 1)
            return Repeat(count, self.program(obj["body"], where + ".body"), where)
        if kind not in ("taskloop", "loop", "tree"):
            raise self.fail(where + ".kind", "%s is not taskloop, loop, tree, barrier or repeat"
                            % json.dumps(kind))
        if kind == "tree":
            return self.same_as_before(self.tree(obj, where))
        extra = ("num_tasks", "grainsize") if kind == "taskloop" else ("schedule", "chunk")
        self.keys(obj, where, ("kind", "name", "iters", "ns"),
                  ("bytes", "data", "profile", "reuse", "atomic_ns", "note") + extra)
        name = self.name(obj["name"], where)
        reuse = obj.get("reuse", False)
        if not isinstance(reuse, bool):
            raise self.fail(where + ".reuse", "must be true or false, not %s" % json.dumps(reuse))
        common: Doc = dict(kind=kind, name=name, iters=self.iters(obj["iters"], where + ".iters"),
                           ns=self.number(obj["ns"], where + ".ns"),
                           bytes=self.number(obj.get("bytes", 0), where + ".bytes"),
                           data=self.data(obj.get("data", "static"), where + ".data"),
                           profile=self.profile(obj.get("profile", "uniform"), where + ".profile"),
                           atomic_ns=self.number(obj.get("atomic_ns", 0), where + ".atomic_ns"),
                           reuse=reuse, where=where)
        if kind == "taskloop":
            nt = self.integer(obj.get("num_tasks", 0), where + ".num_tasks", 0)
            gs = self.integer(obj.get("grainsize", 0), where + ".grainsize", 0)
            if nt and gs:
                raise self.fail(where, "num_tasks and grainsize together (OpenMP allows one "
                                "of the two clauses)")
            work = Work(num_tasks=nt, grainsize=gs, **common)
        else:
            sched = obj.get("schedule", "static")
            if sched not in SCHEDULES:
                raise self.fail(where + ".schedule", "%s is not one of %s" % (
                    json.dumps(sched), ", ".join(SCHEDULES)))
            work = Work(schedule=sched, chunk=self.integer(obj.get("chunk", 0), where + ".chunk", 0),
                        **common)
        return self.same_as_before(work)

    def name(self, v: Any, where: str) -> str:
        if not isinstance(v, str) or not NAME_RE.match(v):
            raise self.fail(where + ".name", "%s: a name is letters, digits and _.:- (no blanks)"
                            % json.dumps(v))
        return v

    def same_as_before(self, c: "Work | Tree") -> "Work | Tree":
        """c, after checking that an earlier construct of its name is alike."""
        first = self.defined.setdefault(c.name, c)
        if first != c:
            raise self.fail(c.where, "%r is defined differently at %s: a name is one construct "
                            "(one call site), define it once and reuse it alike" % (c.name, first.where))
        return c

    def tree(self, obj: Doc, where: str) -> Tree:
        self.keys(obj, where, ("kind", "name", "shape", "n", "ns"),
                  ("bytes", "data", "cutoff", "q", "m", "seed", "note"))
        name = self.name(obj["name"], where)
        shape = obj["shape"]
        if shape not in SHAPES:
            raise self.fail(where + ".shape", "%s is not one of %s" % (json.dumps(shape), ", ".join(SHAPES)))
        n = self.integer(obj["n"], where + ".n", 1)
        if shape == "fib" and n > FIB_MAX:
            raise self.fail(where + ".n", "fib(%d): at most fib(%d) (about 1.6^n tasks)" % (n, FIB_MAX))
        cutoff = self.integer(obj.get("cutoff", 0), where + ".cutoff", 1 if shape == "sort" else 0)
        q = self.number(obj.get("q", 0), where + ".q")
        if q > 1:
            raise self.fail(where + ".q", "a probability, from 0 to 1, not %s" % json.dumps(obj["q"]))
        seed = self.integer(obj.get("seed", 0), where + ".seed", 0)
        if seed >= 1 << 64:
            raise self.fail(where + ".seed", "must be below 2^64")
        return Tree(name, shape, n, self.number(obj["ns"], where + ".ns"),
                    self.number(obj.get("bytes", 0), where + ".bytes"),
                    self.data(obj.get("data", "static"), where + ".data"), cutoff, q,
                    self.integer(obj.get("m", 0), where + ".m", 0), seed, where)

    def program(self, v: Any, where: str) -> tuple[Construct, ...]:
        if not isinstance(v, list) or not v:
            raise self.fail(where, "must be a non-empty list of constructs")
        return tuple(self.construct(c, "%s[%d]" % (where, i)) for i, c in enumerate(v))


def check_workload(doc: Any, path: str) -> Workload:
    """A workload document checked and parsed; `path` names it in errors."""
    ck = _Checker(path)
    if not isinstance(doc, dict):
        raise IlanError("%s: a workload is a JSON object with name, models and program" % path)
    ck.keys(doc, "workload", ("name", "models", "program"), ("notes",))
    name = doc["name"]
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ck.fail("name", "%s: letters, digits and _.:- only" % json.dumps(name))
    if not isinstance(doc["models"], str) or not doc["models"].strip():
        raise ck.fail("models", "a sentence saying what the workload models and from where")
    program = ck.program(doc["program"], "program")
    if not ck.defined:
        raise ck.fail("program", "no taskloop, loop or tree: nothing to simulate")
    return Workload(name, doc["models"], program, path)


def load_workload(path: str | Path) -> Workload:
    return check_workload(load_json(path, "the workload"), str(path))


def walk(program: tuple[Construct, ...]) -> Iterator[Construct]:
    """Every construct of a program, depth first, repeat bodies included."""
    for c in program:
        yield c
        if isinstance(c, Repeat):
            yield from walk(c.body)


# -------------------------------------------------------------- engine input

def number(x: float) -> str:
    """A number as the engine reads it: integers without a point, others
    with every digit Python needs to read the same double back."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


def work_line(w: Work) -> str:
    iters = ",".join(str(n) for n in w.iters)
    head = "%s %s iters=%s ns=%s bytes=%s data=%s profile=%s" % (
        w.kind, w.name, iters, number(w.ns), number(w.bytes), w.data, w.profile)
    if w.kind == "taskloop":
        tail = "num_tasks=%d grainsize=%d" % (w.num_tasks, w.grainsize)
    else:
        tail = "schedule=%s chunk=%d" % (w.schedule, w.chunk)
    # atomic_ns is optional in the engine's input: written only when used,
    # so that workloads without it read as they always did
    atomic = " atomic_ns=%s" % number(w.atomic_ns) if w.atomic_ns else ""
    return "%s %s reuse=%d%s" % (head, tail, int(w.reuse), atomic)


def tree_line(t: Tree) -> str:
    return "tree %s shape=%s n=%d ns=%s bytes=%s data=%s cutoff=%d q=%s m=%d seed=%d" % (
        t.name, t.shape, t.n, number(t.ns), number(t.bytes), t.data, t.cutoff, number(t.q), t.m, t.seed)


def program_lines(program: tuple[Construct, ...], machine: Machine, path: str,
                  depth: int = 0) -> list[str]:
    pad = "  " * depth
    out: list[str] = []
    for c in program:
        if isinstance(c, Work | Tree):
            if c.data.startswith("node:") and int(c.data[5:]) >= machine.nodes:
                raise IlanError("%s: %s.data: %s, but the machine has %d node(s) (0-%d)" % (
                    path, c.where, c.data, machine.nodes, machine.nodes - 1))
            out.append(pad + (work_line(c) if isinstance(c, Work) else tree_line(c)))
        elif isinstance(c, Barrier):
            out.append(pad + "barrier")
        else:
            out.append(pad + "repeat %d" % c.count)
            out += program_lines(c.body, machine, path, depth + 1)
            out.append(pad + "end")
    return out


def known_policy(name: str) -> bool:
    """Whether the engine knows the policy `name`: one of POLICIES, or an
    ablation of ilan or thesis naming each part of ABLATION_PARTS once."""
    if name in POLICIES:
        return True
    for base, sign in (("thesis", "+"), ("ilan", "-")):
        if name.startswith(base + sign):
            parts = name[len(base) + 1:].split(sign)
            return len(set(parts)) == len(parts) and all(p in ABLATION_PARTS for p in parts)
    return False


# ILAN_DLB's parameters for the engine's optional `dlb` line: N_victim,
# N_steal, T_interval (idle rounds), P_local.
DlbParams = tuple[int, int, int, float]


def dlb_params(text: str) -> DlbParams:
    """--dlb V,S,I,P: counts of at least 1 and a probability."""
    parts = text.split(",")
    try:
        if len(parts) != 4:
            raise ValueError
        v, s, i, p = int(parts[0]), int(parts[1]), int(parts[2]), float(parts[3])
    except ValueError:
        raise IlanError("--dlb %r: expected VICTIMS,STEAL,INTERVAL,PLOCAL (e.g. 4,8,16,1)"
                        % text) from None
    if min(v, s, i) < 1 or not 0 <= p <= 1:
        raise IlanError("--dlb %r: VICTIMS, STEAL and INTERVAL are at least 1, PLOCAL is "
                        "between 0 and 1" % text)
    return v, s, i, p


def engine_text(machine: Machine, params: Doc, threads: int, workload: Workload, policy: str,
                seed: int, timeline: bool, dlb: DlbParams | None = None,
                slb_queue: int | None = None) -> str:
    """The engine's input (sim/README.md, "The engine's input") for one run:
    thread i on core i, thread 0 the creator; `dlb` and `slb_queue` set the
    message-based balancing's parameters and the slb queues' size (the
    engine's defaults when None)."""
    if not known_policy(policy):
        raise IlanError("unknown policy %r: choose from %s, %s" % (
            policy, ",".join(POLICIES), ABLATIONS))
    if not 1 <= threads <= machine.cores:
        raise IlanError("%d threads on a machine of %d cores: one thread per core at most "
                        "(oversubscription is not modelled)" % (threads, machine.cores))
    lines = [FORMAT_LINE,
             "# %s on %s" % (workload.name, machine.topology.replace("\n", " ")),
             "seed %d" % seed, "policy %s" % policy, "timeline %d" % int(timeline)]
    if dlb:
        lines.append("dlb %d %d %d %s" % (dlb[0], dlb[1], dlb[2], repr(dlb[3])))
    if slb_queue:
        lines.append("slb %d" % slb_queue)
    lines.append("cores %d" % machine.cores)
    lines += ["core %d %d %d %d" % (c, machine.core_node[c], machine.core_llc[c],
                                    machine.core_package[c]) for c in range(machine.cores)]
    lines.append("nodes %d" % machine.nodes)
    lines += ["dist %d %s" % (n, " ".join(str(d) for d in row))
              for n, row in enumerate(machine.distances)]
    lines += ["param %s %s" % (name, number(params[name])) for name in PARAM_NAMES]
    lines += ["param %s %s" % (name, number(params[name])) for name in OPTIONAL_NAMES
              if name in params]
    lines.append("threads %d" % threads)
    lines += ["thread %d %d" % (i, i) for i in range(threads)]
    if params.get("unbound"):
        lines.append("unbound 1")
    lines.append("program")
    lines += program_lines(workload.program, machine, workload.path)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------- engine runs

def engine_path() -> Path:
    """build/sim/ilan-sim-engine, or $ILAN_BUILD_DIR/sim/ilan-sim-engine; once
    installed (and without ILAN_BUILD_DIR), beside the runtime in PREFIX/lib/ilan."""
    if installed() and not os.environ.get("ILAN_BUILD_DIR"):
        return lib_dir() / "ilan-sim-engine"
    return build_dir() / "sim" / "ilan-sim-engine"


def check_engine(engine: Path) -> None:
    if not os.access(engine, os.X_OK):
        if installed() and not os.environ.get("ILAN_BUILD_DIR"):
            raise IlanError("the simulator engine %s is missing: reinstall ilan, or set "
                            "ILAN_BUILD_DIR to a build folder holding sim/ilan-sim-engine"
                            % engine)
        raise IlanError("the simulator engine %s is missing: run make (it builds "
                        "build/sim/ilan-sim-engine), or set ILAN_BUILD_DIR to the build folder "
                        "holding sim/ilan-sim-engine" % rel(engine))


def check_result(doc: Any, policy: str) -> Doc:
    """The engine's output, checked for the fields ilan sim reads."""
    if not isinstance(doc, dict) or not _is_number(doc.get("time_s")) or not isinstance(
            doc.get("constructs"), list) or not all(
            isinstance(c, dict) and isinstance(c.get("name"), str) for c in doc["constructs"]):
        raise IlanError("the engine's output for policy %s lacks time_s or constructs: an engine "
                        "older or newer than this ilan; rebuild with make" % policy)
    return doc


def run_engine(engine: Path, text: str, policy: str) -> Doc:
    """One engine run on input `text`: its JSON output."""
    try:
        p = subprocess.run([str(engine)], input=text, capture_output=True, text=True)
    except OSError as e:
        raise IlanError("cannot run the engine %s: %s (run make)" % (rel(engine), e.strerror or e)) from None
    if p.returncode != 0:
        err = p.stderr.strip().splitlines()
        last = err[-1] if err else "(nothing on stderr)"
        m = re.match(r"ilan-sim-engine: line (\d+): (.*)", last)
        if m and p.returncode == 2:
            n = int(m.group(1))
            lines = text.splitlines()
            shown = lines[n - 1].strip() if 0 < n <= len(lines) else "?"
            raise IlanError("the engine rejected line %d of its input (%s): %s; ilan sim and "
                            "the engine disagree on the format: rebuild with make"
                            % (n, shown, m.group(2)))
        how = "was killed by signal %d" % -p.returncode if p.returncode < 0 else \
            "failed (status %d)" % p.returncode
        raise IlanError("the engine %s on policy %s: %s" % (how, policy, last))
    out = [l for l in p.stdout.splitlines() if l.strip()]
    try:
        doc = json.loads(out[-1]) if out else None
    except ValueError as e:
        raise IlanError("the engine wrote something that is not JSON on policy %s (%s)"
                        % (policy, e)) from None
    return check_result(doc, policy)


@dataclass
class Sim:
    """Everything one `ilan sim` invocation runs."""
    machine: Machine
    params: Doc
    params_path: str
    workloads: list[Workload]
    policies: list[str]
    seed: int = 1
    threads: int = 0            # 0: one per core
    timeline: bool = False
    dlb: DlbParams | None = None   # ILAN_DLB's parameters (None: the runtime's defaults)
    slb_queue: int | None = None   # tasks an slb queue holds (None: the engine's 64)

    def thread_count(self) -> int:
        return self.threads or self.machine.cores

    def inputs(self) -> list[tuple[Workload, str, str]]:
        """(workload, policy, engine input) of every run, workloads outer."""
        return [(w, p, engine_text(self.machine, self.params, self.thread_count(), w, p, self.seed,
                                   self.timeline, self.dlb, self.slb_queue))
                for w in self.workloads for p in self.policies]


Results = dict[str, dict[str, Doc]]   # workload name -> policy -> engine output


def run(sim: Sim, engine: Path, jobs: int | None = None) -> Results:
    """Runs the engine once per workload and policy, `jobs` at a time
    (default: the CPUs this process may use)."""
    check_engine(engine)
    todo = sim.inputs()   # every input built (and checked) before anything runs
    jobs = jobs or len(os.sched_getaffinity(0))
    results: Results = {w.name: {} for w in sim.workloads}

    def one(item: tuple[Workload, str, str]) -> tuple[str, str, Doc]:
        w, p, text = item
        try:
            return w.name, p, run_engine(engine, text, p)
        except IlanError as e:
            raise IlanError("%s: %s" % (w.name, e)) from None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for name, p, doc in pool.map(one, todo):
            results[name][p] = doc
    return results


# -------------------------------------------------------------------- output

def baseline(policies: list[str]) -> str:
    """The policy speedups are relative to: llvm when present, else the first."""
    return "llvm" if "llvm" in policies else policies[0]


def speedups(results: Results, policies: list[str]) -> dict[str, dict[str, float]]:
    """{workload: {policy: baseline's time / the policy's}}."""
    base = baseline(policies)
    out: dict[str, dict[str, float]] = {}
    for w, runs in results.items():
        t0 = float(runs[base]["time_s"])
        out[w] = {p: t0 / float(runs[p]["time_s"]) if float(runs[p]["time_s"]) > 0 else 0.0
                  for p in policies}
    return out


def seconds(x: Any) -> str:
    """A simulated time with 4 significant digits and a unit (the model is
    deterministic, so small differences are real, not noise)."""
    if not _is_number(x):
        return "-"
    v = float(x)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(v) >= scale:
            return "%#.4g %s" % (v / scale, unit)
    return "%#.4g ns" % (v * 1e9)


def render_table(head: list[str], body: list[list[str]], numeric: set[int], markdown: bool) -> list[str]:
    """Rows as Markdown or as aligned text; columns in `numeric` are
    right-aligned (numbers), the others left-aligned."""
    if markdown:
        rule = "|" + "".join("---:|" if i in numeric else "---|" for i in range(len(head)))
        return ["| " + " | ".join(head) + " |", rule] + [
            "| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    return ["  ".join(c.rjust(w) if i in numeric else c.ljust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in [head] + body]


def render(workload: Workload, runs: dict[str, Doc], policies: list[str], markdown: bool = False) -> str:
    """One workload's table: per policy its simulated time and speedup,
    then per construct its time, the configuration the engine reports
    last and the exploration's state."""
    base = baseline(policies)
    t0 = float(runs[base]["time_s"])
    head = ["policy", "time", "speedup", "construct", "construct time", "config", "state"]
    body: list[list[str]] = []
    for p in policies:
        doc = runs[p]
        t = float(doc["time_s"])
        first = [p, seconds(t), "%.3f" % (t0 / t) if t > 0 else "-"]
        constructs = doc.get("constructs") or []
        if not constructs:
            body.append(first + ["", "", "", ""])
        for i, c in enumerate(constructs):
            row = first if i == 0 else ["", "", ""]
            body.append(row + [str(c.get("name", "?")), seconds(c.get("time_s")),
                               str(c.get("config") or "-"), str(c.get("state") or "")])
    title = "%s: %s" % (workload.name, workload.models)
    lines = ["**%s**" % title, ""] if markdown else [title]
    return "\n".join(lines + render_table(head, body, {1, 2, 4}, markdown))


def describe_run(sim: Sim) -> str:
    m = sim.machine
    name = sim.params.get("name", Path(sim.params_path).stem)
    return ("machine %s (%s): %d thread(s) on %d core(s), %d NUMA node(s); parameters %s; seed %d; "
            "speedup = %s's simulated time / the policy's" % (
                m.topology, m.source, sim.thread_count(), m.cores, m.nodes, name, sim.seed,
                baseline(sim.policies)))


def document(sim: Sim, results: Results, command: str) -> Doc:
    """The --json document: machine, parameters, seed, and per workload the
    engine's output per policy."""
    return {"ilan_version": __version__, "command": command, "machine": sim.machine.as_json(),
            "threads": sim.thread_count(), "params_file": sim.params_path, "params": sim.params,
            "seed": sim.seed, "policies": sim.policies, "baseline": baseline(sim.policies),
            "dlb": list(sim.dlb) if sim.dlb else None, "slb_queue": sim.slb_queue,
            "workloads": [{"name": w.name, "file": w.path, "models": w.models,
                           "runs": results[w.name]} for w in sim.workloads]}


def draw_speedup(sim: Sim, results: Results, path: Path) -> Path:
    """speedup.png: per workload a group of bars, one per policy."""
    from .chart import pyplot, save
    plt = pyplot()
    data = speedups(results, sim.policies)
    names = [w.name for w in sim.workloads]
    width = 0.8 / len(sim.policies)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(names) + 2), 4.5))
    # tab20 tells apart up to 20 policies (the default cycle repeats after 10,
    # which ablations pass); the legend goes beside the bars, not over them.
    colours = plt.get_cmap("tab20" if len(sim.policies) > 10 else "tab10")
    for i, p in enumerate(sim.policies):
        xs = [k + (i - (len(sim.policies) - 1) / 2) * width for k in range(len(names))]
        ax.bar(xs, [data[n][p] for n in names], width, label=p, color=colours(i % 20))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=25, ha="right", fontsize=8)
    ax.set_ylabel("speedup over %s (simulated)" % baseline(sim.policies))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("%s, %d threads, seed %d" % (sim.params.get("name", sim.machine.topology),
                                              sim.thread_count(), sim.seed), fontsize=9)
    return save(fig, path)


def draw_timeline(run_doc: Doc, title: str, path: Path) -> Path:
    """One run's per-thread intervals, coloured by construct."""
    from .chart import pyplot, save
    plt = pyplot()
    names = [str(c.get("name", "?")) for c in run_doc.get("constructs") or []]
    spans: dict[tuple[int, int], list[tuple[float, float]]] = {}
    threads = 0
    for item in run_doc.get("timeline") or []:
        th, start, end, ci = int(item[0]), float(item[1]), float(item[2]), int(item[3])
        spans.setdefault((th, ci), []).append((start * 1e3, (end - start) * 1e3))
        threads = max(threads, th + 1)
    threads = max(threads, len(run_doc.get("threads") or []))
    colours = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(10, min(14.0, max(3.0, 0.09 * threads + 1.8))))
    shown: set[int] = set()
    for (th, ci), bars in sorted(spans.items()):
        label = (names[ci] if 0 <= ci < len(names) else "construct %d" % ci) if ci not in shown else None
        shown.add(ci)
        ax.broken_barh(bars, (th - 0.4, 0.8), facecolors=colours(ci % 20), label=label)
    from matplotlib.ticker import MaxNLocator
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("simulated time (ms)")
    ax.set_ylabel("thread")
    ax.set_ylim(-0.6, max(threads, 1) - 0.4)
    ax.invert_yaxis()
    if shown:
        ax.legend(fontsize=7, loc="upper right")
    truncated = " (timeline truncated by the engine)" if run_doc.get("timeline_truncated") else ""
    ax.set_title(title + truncated, fontsize=9)
    return save(fig, path)


def draw_all(sim: Sim, results: Results, folder: Path,
             log: Callable[[str], None] = lambda s: None) -> list[Path]:
    """speedup.png and, with a timeline, timeline-<workload>-<policy>.png."""
    folder.mkdir(parents=True, exist_ok=True)
    made = [draw_speedup(sim, results, folder / "speedup.png")]
    if sim.timeline:
        for w in sim.workloads:
            for p in sim.policies:
                doc = results[w.name][p]
                if "timeline" not in doc:
                    log("%s/%s: the engine gave no timeline" % (w.name, p))
                    continue
                made.append(draw_timeline(doc, "%s, policy %s: %s" % (
                    w.name, p, seconds(doc["time_s"])), folder / ("timeline-%s-%s.png" % (w.name, p))))
    return made


def policy_list(text: str) -> list[str]:
    """--policies: a comma list of known policies (repeats count once)."""
    names = list(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    bad = [n for n in names if not known_policy(n)]
    if bad or not names:
        raise IlanError("--policies %r: choose a comma list out of %s, %s" % (
            bad[0] if bad else text, ",".join(POLICIES), ABLATIONS))
    return names


def command_line(argv: list[str]) -> str:
    return "ilan " + " ".join(shlex.quote(a) for a in argv)
