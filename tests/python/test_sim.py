"""ilan sim: workload and parameter checks, the engine's input, the tables and --json, and (once the engine is built) the model's behaviour: determinism, policies on one node, bandwidth, and the cost of balanced compute."""

import functools
import json
import math
import os
import subprocess
import sys

import pytest

from ilan import IlanError, sim
from ilan.paths import REPO, lib_dir

MACHINES = REPO / "sim" / "machines"
WORKLOADS = REPO / "sim" / "workloads"
ENGINE = sim.engine_path()
needs_runtime = pytest.mark.skipif(not (lib_dir() / "libgomp.so.1").exists(),
                                   reason="ilan is not built (make)")
needs_engine = pytest.mark.skipif(not os.access(ENGINE, os.X_OK),
                                  reason="the simulator engine is not built (make)")


def machine(nodes=2, cores_per_node=2, llc_per_node=1):
    """A Machine built by hand: nodes of equal size, one package per two nodes."""
    cores = nodes * cores_per_node
    per_llc = cores_per_node // llc_per_node
    dist = tuple(tuple(10 if a == b else 20 if a // 2 == b // 2 else 30 for b in range(nodes))
                 for a in range(nodes))
    return sim.Machine("hand-made", "test", tuple(c // cores_per_node for c in range(cores)),
                       tuple(c // per_llc for c in range(cores)),
                       tuple(c // (2 * cores_per_node) for c in range(cores)), dist)


def params(**changes):
    """vm-2core's parameters, on even cores with a bound team (its optional
    uneven speed and unbound team left out) unless `changes` sets them."""
    doc = json.loads((MACHINES / "vm-2core.json").read_text())
    for key in sim.OPTIONAL_NAMES + ("unbound",):
        doc.pop(key, None)
    doc.update(changes)
    return doc


def workload(*program, name="w"):
    return sim.check_workload({"name": name, "models": "a test", "program": list(program)}, "w.json")


def taskloop(name="t", **fields):
    return dict({"kind": "taskloop", "name": name, "iters": 100, "ns": 10.0}, **fields)


def loop(name="l", **fields):
    return dict({"kind": "loop", "name": name, "iters": 100, "ns": 10.0}, **fields)


# ------------------------------------------------------------------ workloads

def test_a_workload_parses_with_defaults():
    w = workload({"kind": "repeat", "count": 3, "body": [taskloop(), {"kind": "barrier"}, loop()]})
    rep = w.program[0]
    assert isinstance(rep, sim.Repeat) and rep.count == 3
    t, b, l = rep.body
    assert (t.kind, t.iters, t.bytes, t.data, t.profile, t.num_tasks, t.grainsize, t.reuse) == \
        ("taskloop", (100,), 0.0, "static", "uniform", 0, 0, False)
    assert isinstance(b, sim.Barrier)
    assert (l.kind, l.schedule, l.chunk) == ("loop", "static", 0)


@pytest.mark.parametrize("construct, where, words", [
    (taskloop(ns=-1), "program[0].ns", "number >= 0"),
    (taskloop(ns="fast"), "program[0].ns", "number >= 0"),
    (taskloop(iters=0), "program[0].iters", ">= 1"),
    (taskloop(iters=[10, 0]), "program[0].iters[1]", ">= 1"),
    (taskloop(iters=[]), "program[0].iters", "empty list"),
    (taskloop(iters=2.5), "program[0].iters", "whole number"),
    (taskloop(data="node"), "program[0].data", "node:K"),
    (taskloop(profile="peak:0:2"), "program[0].profile", "0 < W <= 1"),
    (taskloop(profile="peak:0.5:-1"), "program[0].profile", "H > 0"),
    (taskloop(profile="steep"), "program[0].profile", "uniform, linear or peak"),
    (taskloop(num_tasks=4, grainsize=2), "program[0]", "num_tasks and grainsize"),
    (taskloop(schedule="static"), "program[0]", "unknown field 'schedule'"),
    (loop(num_tasks=4), "program[0]", "unknown field 'num_tasks'"),
    (loop(schedule="runtime"), "program[0].schedule", "not one of"),
    (loop(chunk=-1), "program[0].chunk", ">= 0"),
    (taskloop(reuse=1), "program[0].reuse", "true or false"),
    (taskloop(name="two words"), "program[0].name", "no blanks"),
    ({"kind": "taskloop", "iters": 5, "ns": 1}, "program[0]", "missing field 'name'"),
    ({"kind": "task", "name": "x"}, "program[0].kind", "not taskloop, loop, tree, barrier or repeat"),
    ({"kind": "repeat", "count": 0, "body": [taskloop()]}, "program[0].count", ">= 1"),
    ({"kind": "repeat", "count": 2, "body": []}, "program[0].body", "non-empty list"),
    ({"kind": "repeat", "count": 2, "body": [taskloop(ns=None)]}, "program[0].body[0].ns", "number"),
])
def test_workload_errors_name_the_file_and_the_field(construct, where, words):
    with pytest.raises(IlanError) as e:
        workload(construct)
    msg = str(e.value)
    assert msg.startswith("w.json: %s: " % where), msg
    assert words in msg
    assert "\n" not in msg


@pytest.mark.parametrize("tree, where, words", [
    ({"shape": "fib", "n": 61, "ns": 5}, "program[0].n", "at most fib(60)"),
    ({"shape": "sort", "n": 1000, "ns": 5}, "program[0].cutoff", ">= 1"),
    ({"shape": "uts", "n": 10, "ns": 5, "q": 1.5, "m": 4}, "program[0].q", "from 0 to 1"),
    ({"shape": "bfs", "n": 10, "ns": 5}, "program[0].shape", "not one of fib, sort, uts"),
    ({"shape": "uts", "n": 0, "ns": 5}, "program[0].n", ">= 1"),
    ({"shape": "fib", "n": 20, "ns": 5, "iters": 3}, "program[0]", "unknown field 'iters'"),
    ({"shape": "uts", "n": 10, "ns": 5, "seed": 1 << 64}, "program[0].seed", "below 2^64"),
])
def test_tree_errors(tree, where, words):
    with pytest.raises(IlanError) as e:
        workload(dict({"kind": "tree", "name": "t"}, **tree))
    assert str(e.value).startswith("w.json: %s: " % where) and words in str(e.value), str(e.value)


def test_trees_and_atomics_in_the_engine_text():
    w = workload({"kind": "tree", "name": "fib", "shape": "fib", "n": 25, "ns": 3.5, "cutoff": 10},
                 {"kind": "tree", "name": "uts", "shape": "uts", "n": 200, "ns": 50, "bytes": 64,
                  "data": "interleave", "q": 0.124, "m": 8, "seed": 19},
                 taskloop("hot", atomic_ns=40))
    body = sim.engine_text(machine(), params(), 4, w, "thesis", 1, False).split("program\n")[1]
    assert body.splitlines() == [
        "tree fib shape=fib n=25 ns=3.5 bytes=0 data=static cutoff=10 q=0 m=0 seed=0",
        "tree uts shape=uts n=200 ns=50 bytes=64 data=interleave cutoff=0 q=0.124 m=8 seed=19",
        "taskloop hot iters=100 ns=10 bytes=0 data=static profile=uniform num_tasks=0 grainsize=0 "
        "reuse=0 atomic_ns=40"]
    # without atomic_ns, the line is the one the format always had
    assert sim.work_line(workload(taskloop()).program[0]).endswith("reuse=0")


def test_a_name_is_one_construct():
    # the same name again, alike: one call site reached twice
    w = workload(taskloop("a"), {"kind": "repeat", "count": 2, "body": [taskloop("a")]})
    assert len(list(sim.walk(w.program))) == 3
    with pytest.raises(IlanError, match=r"program\[1\]: 'a' is defined differently at program\[0\]"):
        workload(taskloop("a"), taskloop("a", ns=11.0))
    with pytest.raises(IlanError, match="defined differently"):
        workload(taskloop("a"), loop("a"))


def test_workload_document_errors():
    with pytest.raises(IlanError, match=r"w.json: workload: missing field 'models'"):
        sim.check_workload({"name": "x", "program": [taskloop()]}, "w.json")
    with pytest.raises(IlanError, match=r"unknown field 'progam'"):
        sim.check_workload({"name": "x", "models": "m", "program": [taskloop()], "progam": 1}, "w.json")
    with pytest.raises(IlanError, match=r"w.json: program: no taskloop, loop or tree"):
        sim.check_workload({"name": "x", "models": "m", "program": [{"kind": "barrier"}]}, "w.json")
    with pytest.raises(IlanError, match=r"w.json: models: a sentence"):
        sim.check_workload({"name": "x", "models": " ", "program": [taskloop()]}, "w.json")


def test_load_workload_reports_bad_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"name\": ")
    with pytest.raises(IlanError, match="bad.json is not valid JSON"):
        sim.load_workload(bad)
    with pytest.raises(IlanError, match="cannot read the workload"):
        sim.load_workload(tmp_path / "missing.json")


SHIPPED = sorted(WORKLOADS.glob("*.json"))


def test_the_workloads_asked_for_are_shipped():
    names = {p.stem for p in SHIPPED}
    assert {"npb-cg-like", "npb-sp-like", "npb-mg-like", "stream-balanced", "stream-twisted",
            "stream-imbalanced", "mandelbrot-like", "kmeans-like"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_workloads_are_valid(path):
    w = sim.load_workload(path)
    assert w.name == path.stem
    text = sim.engine_text(machine(8, 8, 2), params(), 64, w, "ilan", 1, False)
    body = text.split("\nprogram\n", 1)[1].splitlines()
    depth = 0
    for line in body:
        word = line.split()[0]
        assert word in ("taskloop", "loop", "tree", "barrier", "repeat", "end"), line
        depth += word == "repeat"
        depth -= word == "end"
        assert depth >= 0
    assert depth == 0


def test_mg_like_sizes_change_between_executions():
    w = sim.load_workload(WORKLOADS / "npb-mg-like.json")
    lists = [c.iters for c in sim.walk(w.program) if isinstance(c, sim.Work) and len(c.iters) > 1]
    assert lists and all(len(set(i)) == len(i) for i in lists)


def test_kmeans_like_compares_adaptive_with_guided_and_static():
    w = sim.load_workload(WORKLOADS / "kmeans-like.json")
    schedules = {c.schedule for c in sim.walk(w.program) if isinstance(c, sim.Work)}
    assert {"adaptive", "guided", "static"} <= schedules


def test_mandelbrot_like_is_an_imbalanced_peak():
    w = sim.load_workload(WORKLOADS / "mandelbrot-like.json")
    assert any(c.profile.startswith("peak:") for c in sim.walk(w.program) if isinstance(c, sim.Work))


# --------------------------------------------------------------- engine input

def test_engine_text_is_the_format_of_sim_readme():
    w = workload({"kind": "repeat", "count": 2, "body": [
        taskloop("spmv", iters=[10, 20], ns=2.5, bytes=96, data="node:1", profile="peak:0.5:4",
                 num_tasks=8, reuse=True),
        {"kind": "barrier"},
        loop("norm", iters=1000, ns=0.1, schedule="adaptive", chunk=4, data="interleave")]})
    text = sim.engine_text(machine(2, 2), params(), 3, w, "numa", 7, True)
    expected = ["ilan-sim 1", "# w on hand-made", "seed 7", "policy numa", "timeline 1", "cores 4",
                "core 0 0 0 0", "core 1 0 0 0", "core 2 1 1 0", "core 3 1 1 0",
                "nodes 2", "dist 0 10 20", "dist 1 20 10"]
    expected += ["param %s %s" % (n, sim.number(params()[n])) for n in sim.PARAM_NAMES]
    expected += ["threads 3", "thread 0 0", "thread 1 1", "thread 2 2", "program", "repeat 2",
                 "  taskloop spmv iters=10,20 ns=2.5 bytes=96 data=node:1 profile=peak:0.5:4 "
                 "num_tasks=8 grainsize=0 reuse=1",
                 "  barrier",
                 "  loop norm iters=1000 ns=0.1 bytes=0 data=interleave profile=uniform "
                 "schedule=adaptive chunk=4 reuse=0",
                 "end"]
    assert text == "\n".join(expected) + "\n"


def test_every_parameter_is_written_once_in_the_table_order():
    text = sim.engine_text(machine(), params(), 4, workload(taskloop()), "ws", 1, False)
    names = [l.split()[1] for l in text.splitlines() if l.startswith("param ")]
    assert names == list(sim.PARAM_NAMES)
    assert len(sim.PARAM_NAMES) == 15


def test_optional_parameters_and_an_unbound_team_are_written_only_when_given():
    w = workload(taskloop())
    plain = sim.engine_text(machine(), params(), 4, w, "numa", 1, False)
    assert "speed_" not in plain and "unbound" not in plain
    text = sim.engine_text(machine(), params(speed_spread=0.1, speed_interval_us=500, unbound=True),
                           4, w, "numa", 1, False).splitlines()
    at = text.index("param pop_ns %s" % sim.number(params()["pop_ns"]))
    assert text[at + 1:at + 3] == ["param speed_spread 0.1", "param speed_interval_us 500"]
    assert text[text.index("program") - 1] == "unbound 1"
    assert "unbound" not in sim.engine_text(machine(), params(unbound=False), 4, w, "numa", 1, False)


@pytest.mark.parametrize("x, text", [(3, "3"), (3.0, "3"), (0.1, "0.1"), (2.5e-9, "2.5e-09"),
                                     (1234567.25, "1234567.25"), (1e20, "1e+20")])
def test_numbers_are_written_exactly(x, text):
    assert sim.number(x) == text
    assert float(sim.number(x)) == x


def test_engine_text_checks_against_the_machine():
    w = workload(taskloop(data="node:2"))
    with pytest.raises(IlanError, match=r"w.json: program\[0\].data: node:2, but the machine has 2 node"):
        sim.engine_text(machine(2), params(), 2, w, "ws", 1, False)
    with pytest.raises(IlanError, match="5 threads on a machine of 4 cores"):
        sim.engine_text(machine(2), params(), 5, workload(taskloop()), "ws", 1, False)
    with pytest.raises(IlanError, match="unknown policy 'gomp'"):
        sim.engine_text(machine(2), params(), 2, workload(taskloop()), "gomp", 1, False)


def test_policy_list():
    assert sim.policy_list("ilan, ws,ilan") == ["ilan", "ws"]
    assert sim.policy_list("thesis,llvm") == ["thesis", "llvm"]
    assert sim.DEFAULT_POLICIES == ("ws", "llvm", "numa", "ilan")
    with pytest.raises(IlanError, match="'libgomp'"):
        sim.policy_list("ws,libgomp")
    with pytest.raises(IlanError):
        sim.policy_list(" , ")


def test_dlb_and_slb_lines():
    # --dlb and --slb-queue become the engine's optional lines, before `cores`
    w = workload(taskloop())
    text = sim.engine_text(machine(), params(), 4, w, "ilan-na-rp", 1, False, (24, 32, 1000, 0.5), 8)
    lines = text.splitlines()
    assert lines.index("dlb 24 32 1000 0.5") < lines.index("slb 8") < lines.index("cores 4")
    assert "dlb" not in sim.engine_text(machine(), params(), 4, w, "ilan", 1, False)
    assert sim.dlb_params("4,8,16,1") == (4, 8, 16, 1.0)
    for bad in ("4,8,16", "0,1,1,1", "1,1,1,1.5", "a,b,c,d"):
        with pytest.raises(IlanError, match="--dlb"):
            sim.dlb_params(bad)


def test_ablation_names():
    # thesis+X adds and ilan-X leaves out parts of ILAN, each once; the
    # engine's sim_policy_parse takes the same names (test_sim_engine)
    assert sim.policy_list("thesis+size,ilan-drift-resample,thesis+size+guards") == [
        "thesis+size", "ilan-drift-resample", "thesis+size+guards"]
    for bad in ("thesis-size", "ilan+size", "thesis+size+size", "ilan-na-ws-drift",
                "numa-size", "thesis+", "ilan-sizes"):
        assert not sim.known_policy(bad), bad
        with pytest.raises(IlanError, match="ilan-X"):
            sim.policy_list(bad)


# ----------------------------------------------------------------- parameters

@pytest.mark.parametrize("path", sorted(MACHINES.glob("*.json")), ids=lambda p: p.stem)
def test_shipped_machines_are_complete_and_sourced(path):
    doc = sim.load_params(path)
    assert isinstance(doc["name"], str) and isinstance(doc["topology"], str)
    assert len(doc["sources"]) >= 5 and all(len(s) > 20 for s in doc["sources"])
    # every parameter's origin is named in the sources (alone or in a group)
    said = " ".join(doc["sources"])
    for name in sim.PARAM_NAMES:
        assert name in said, "%s: no source names %s" % (path.name, name)


def test_the_machines_asked_for_are_shipped():
    assert {p.stem for p in MACHINES.glob("*.json")} >= {
        "zen4-2x32", "skylake-8x24", "opteron-48", "vm-2core"}


def test_params_errors():
    full = params()
    for name in sim.PARAM_NAMES:
        doc = dict(full)
        del doc[name]
        with pytest.raises(IlanError, match=r"^m.json: missing parameter %s \(" % name):
            sim.check_params(doc, "m.json")
    with pytest.raises(IlanError, match=r"m.json: unknown key 'stea_ns'"):
        sim.check_params(dict(full, stea_ns=1), "m.json")
    with pytest.raises(IlanError, match=r"unknown keys 'a', 'b'"):
        sim.check_params(dict(full, a=1, b=2), "m.json")
    with pytest.raises(IlanError, match="node_bandwidth_gbs must be a number > 0"):
        sim.check_params(dict(full, node_bandwidth_gbs=0), "m.json")
    with pytest.raises(IlanError, match="steal_ns must be a number >= 0"):
        sim.check_params(dict(full, steal_ns=-1), "m.json")
    with pytest.raises(IlanError, match="claim_ns must be a number"):
        sim.check_params(dict(full, claim_ns="41"), "m.json")
    with pytest.raises(IlanError, match="claim_ns must be a number"):
        sim.check_params(dict(full, claim_ns=True), "m.json")
    with pytest.raises(IlanError, match="sources must be a list of strings"):
        sim.check_params(dict(full, sources="the VM"), "m.json")
    assert sim.check_params(dict(full, steal_ns=0), "m.json")["steal_ns"] == 0
    with pytest.raises(IlanError, match="speed_spread must be a number >= 0"):
        sim.check_params(dict(full, speed_spread=-0.1), "m.json")
    with pytest.raises(IlanError, match="speed_interval_us must be a number >= 0"):
        sim.check_params(dict(full, speed_interval_us="8 ms"), "m.json")
    with pytest.raises(IlanError, match="unbound must be true or false"):
        sim.check_params(dict(full, unbound=1), "m.json")
    assert sim.check_params(dict(full, speed_spread=0.1, unbound=True), "m.json")["unbound"]


def test_the_shipped_optional_parameters_are_sourced():
    # a machine file that uses an optional mechanism names its source too
    for path in sorted(MACHINES.glob("*.json")):
        doc = sim.load_params(path)
        said = " ".join(doc["sources"])
        for name in sim.OPTIONAL_NAMES + ("unbound",):
            assert name not in doc or name in said, "%s: no source names %s" % (path.name, name)


# --------------------------------------------------------------------- machine

def test_machine_from_the_runtimes_report():
    t = {"node_cores": [[0, 1], [2, 3]], "core_llc": [0, 0, 1, 1], "core_package": [0, 0, 0, 0],
         "distances": [[10, 20], [20, 10]], "source": "HWLOC_SYNTHETIC=x"}
    m = sim.machine_from_topology(t, "x")
    assert (m.cores, m.nodes, m.core_node, m.source) == (4, 2, (0, 0, 1, 1), "HWLOC_SYNTHETIC=x")
    # the node of a core comes from node_cores, in whatever order it lists them
    t2 = dict(t, node_cores=[[1, 3], [0, 2]])
    assert sim.machine_from_topology(t2, "x").core_node == (1, 0, 1, 0)
    for broken in (dict(t, node_cores=[[0, 1], [1, 2, 3]]), dict(t, node_cores=[[0], [2, 3]]),
                   dict(t, distances=[[10]]), {k: v for k, v in t.items() if k != "core_llc"}):
        with pytest.raises(IlanError):
            sim.machine_from_topology(broken, "x")


def test_topology_env(tmp_path):
    assert sim.topology_env("pack:2 numa:4 core:8 pu:1") == {"HWLOC_SYNTHETIC": "pack:2 numa:4 core:8 pu:1"}
    xml = tmp_path / "m.xml"
    xml.write_text("<topology/>")
    assert sim.topology_env(str(xml)) == {"HWLOC_XMLFILE": str(xml)}
    with pytest.raises(IlanError, match="no such XML file"):
        sim.topology_env(str(tmp_path / "nope.xml"))


@functools.cache
def probed(desc):
    return sim.read_machine(desc)


@needs_runtime
@pytest.mark.parametrize("name, cores, nodes, llcs, packages", [
    ("zen4-2x32", 64, 8, 16, 2), ("skylake-8x24", 192, 8, 8, 8), ("opteron-48", 48, 8, 8, 4),
    ("vm-2core", 2, 1, 1, 1)])
def test_machine_topologies_through_the_runtime(name, cores, nodes, llcs, packages):
    m = probed(sim.load_params(MACHINES / (name + ".json"))["topology"])
    assert (m.cores, m.nodes, len(set(m.core_llc)), len(set(m.core_package))) == \
        (cores, nodes, llcs, packages)
    # every node has the same number of cores, listed contiguously
    per = cores // nodes
    assert m.core_node == tuple(c // per for c in range(cores))
    assert all(m.distances[n][n] == 10 for n in range(nodes))


@needs_runtime
def test_the_zen4_xml_is_the_synthetic_machine_with_its_slit():
    xml = probed(str(MACHINES / "zen4-2x32.xml"))
    syn = probed(sim.load_params(MACHINES / "zen4-2x32.json")["topology"])
    assert (xml.core_node, xml.core_llc, xml.core_package) == \
        (syn.core_node, syn.core_llc, syn.core_package)
    assert xml.source.startswith("HWLOC_XMLFILE=")
    assert {(a // 4 == b // 4, xml.distances[a][b]) for a in range(8) for b in range(8) if a != b} == \
        {(True, 12), (False, 32)}


@needs_runtime
def test_a_machine_hwloc_cannot_load_is_an_error():
    with pytest.raises(IlanError, match="hwloc could not load --machine 'pack:2 nonsense:3'"):
        sim.read_machine("pack:2 nonsense:3")


# --------------------------------------------------------------------- output

def result(policy, time_s, constructs=(("a", 0.5), ("b", 0.25))):
    return {"policy": policy, "seed": 1, "time_s": time_s,
            "constructs": [{"name": n, "kind": "taskloop", "time_s": t, "config": "2 groups strict",
                            "state": "settled: the search ended" if policy == "ilan" else ""}
                           for n, t in constructs], "threads": []}


def test_speedups_are_against_llvm_or_the_first_policy():
    runs = {"w": {"ws": result("ws", 2.0), "llvm": result("llvm", 3.0), "ilan": result("ilan", 1.5)}}
    assert sim.speedups(runs, ["ws", "llvm", "ilan"]) == {"w": {"ws": 1.5, "llvm": 1.0, "ilan": 2.0}}
    assert sim.speedups(runs, ["ws", "ilan"]) == {"w": {"ws": 1.0, "ilan": 2.0 / 1.5}}
    assert sim.baseline(["numa", "ilan"]) == "numa"


def test_the_table():
    w = workload(taskloop("a"), taskloop("b"))
    runs = {"llvm": result("llvm", 3.0), "ilan": result("ilan", 1.5)}
    text = sim.render(w, runs, ["llvm", "ilan"])
    lines = text.splitlines()
    assert lines[0] == "w: a test"
    assert lines[1].split() == ["policy", "time", "speedup", "construct", "construct", "time",
                                "config", "state"]
    assert lines[2].split()[:6] == ["llvm", "3.000", "s", "1.000", "a", "500.0"]
    assert lines[3].split()[:3] == ["b", "250.0", "ms"]
    assert lines[4].split()[:4] == ["ilan", "1.500", "s", "2.000"]
    assert lines[4].endswith("2 groups strict  settled: the search ended")
    # columns line up: every speedup ends where the header's does
    end = lines[1].index("speedup") + len("speedup")
    assert lines[2][:end].endswith("1.000") and lines[4][:end].endswith("2.000")


def test_the_markdown_table():
    w = workload(taskloop("a"), taskloop("b"))
    text = sim.render(w, {"llvm": result("llvm", 3.0), "ilan": result("ilan", 1.5)},
                      ["llvm", "ilan"], markdown=True)
    lines = text.splitlines()
    assert lines[0] == "**w: a test**"
    assert lines[2] == "| policy | time | speedup | construct | construct time | config | state |"
    assert lines[3] == "|---|---:|---:|---|---:|---|---|"
    assert lines[4] == "| llvm | 3.000 s | 1.000 | a | 500.0 ms | 2 groups strict |  |"
    assert lines[5] == "|  |  |  | b | 250.0 ms | 2 groups strict |  |"


@pytest.mark.parametrize("x, text", [(1.5, "1.500 s"), (0.0123, "12.30 ms"), (4.2e-5, "42.00 us"),
                                     (3e-8, "30.00 ns"), (None, "-")])
def test_seconds(x, text):
    assert sim.seconds(x) == text


def test_the_json_document():
    w = workload(taskloop("a"), taskloop("b"))
    run = sim.Sim(machine(), params(), "p.json", [w], ["ws", "llvm"], seed=5)
    results = {"w": {"ws": result("ws", 2.0), "llvm": result("llvm", 3.0)}}
    doc = sim.document(run, results, "ilan sim w.json")
    assert doc["seed"] == 5 and doc["threads"] == 4 and doc["baseline"] == "llvm"
    assert doc["machine"]["core_node"] == [0, 0, 1, 1] and doc["machine"]["nodes"] == 2
    assert doc["params"]["steal_ns"] == params()["steal_ns"]
    assert doc["workloads"][0]["runs"]["llvm"]["time_s"] == 3.0
    json.dumps(doc)   # serialisable as it is


# ------------------------------------------------------------ through the CLI

FAKE_ENGINE = r'''#!%s
"""A stand-in engine: checks the input's frame and answers by policy."""
import json, sys
lines = sys.stdin.read().splitlines()
if lines[0] != "ilan-sim 1":
    print("ilan-sim-engine: line 1: not ilan-sim 1", file=sys.stderr); sys.exit(2)
for i, l in enumerate(lines, 1):
    if l.startswith("loop") and "schedule=fac2" in l:
        print("ilan-sim-engine: line %%d: fac2 is not known" %% i, file=sys.stderr); sys.exit(2)
get = lambda key: next(l.split()[1] for l in lines if l.startswith(key + " "))
names = list(dict.fromkeys(l.split()[1] for l in lines if l.split()[:1] in (["taskloop"], ["loop"])))
t = {"ws": 1.0, "llvm": 1.25, "numa": 0.9, "ilan": 0.8}[get("policy")]
out = {"policy": get("policy"), "seed": int(get("seed")), "time_s": t, "threads": [],
       "constructs": [{"name": n, "kind": "taskloop", "time_s": t / len(names), "config": "x",
                       "state": ""} for n in names]}
if get("timeline") == "1":
    out["timeline"] = [[0, 0.0, t / 2, 0], [1, 0.0, t, 0]]
print(json.dumps(out))
''' % sys.executable


@pytest.fixture
def fake_build(tmp_path):
    """A build folder whose runtime is the real one and whose engine is a
    stand-in: the CLI's path from files to tables, without the engine."""
    build = tmp_path / "build"
    (build / "sim").mkdir(parents=True)
    real = lib_dir().parent
    (build / "lib").symlink_to(real / "lib")
    (build / "bench").symlink_to(real / "bench")
    engine = build / "sim" / "ilan-sim-engine"
    engine.write_text(FAKE_ENGINE)
    engine.chmod(0o755)
    return build


def ilan_sim(*args, build=None):
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    if build:
        env["ILAN_BUILD_DIR"] = str(build)
    return subprocess.run([sys.executable, "-m", "ilan", "sim", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=120)


@needs_runtime
def test_cli_tables_and_json(fake_build, tmp_path):
    out = tmp_path / "r.json"
    p = ilan_sim("--machine", "pack:2 numa:2 core:2 pu:1", "--policies", "ws,llvm,ilan", "--seed", 9,
                 WORKLOADS / "stream-twisted.json", WORKLOADS / "npb-cg-like.json", "--json", out,
                 build=fake_build)
    assert p.returncode == 0, p.stderr
    assert "8 thread(s) on 8 core(s), 4 NUMA node(s); parameters vm-2core; seed 9" in p.stdout
    assert "\nstream-twisted: Seed 003's Twisted-STREAM" in p.stdout
    rows = [l.split() for l in p.stdout.splitlines() if l.split()[:1] in (["ws"], ["llvm"], ["ilan"])]
    assert [(r[0], r[3]) for r in rows] == [("ws", "1.250"), ("llvm", "1.000"), ("ilan", "1.562")] * 2
    doc = json.loads(out.read_text())
    assert [w["name"] for w in doc["workloads"]] == ["stream-twisted", "npb-cg-like"]
    assert set(doc["workloads"][1]["runs"]) == {"ws", "llvm", "ilan"}
    assert doc["workloads"][1]["runs"]["ilan"]["seed"] == 9
    assert doc["machine"]["cores"] == 8 and doc["params"]["name"] == "vm-2core"


@needs_runtime
def test_cli_plots(fake_build, tmp_path):
    pytest.importorskip("matplotlib")
    p = ilan_sim("--machine", "pack:1 numa:2 core:2 pu:1", "--policies", "ws,numa", "--timeline",
                 "--plots", tmp_path / "plots", WORKLOADS / "stream-balanced.json", build=fake_build)
    assert p.returncode == 0, p.stderr
    made = sorted(f.name for f in (tmp_path / "plots").iterdir())
    assert made == ["speedup.png", "timeline-stream-balanced-numa.png",
                    "timeline-stream-balanced-ws.png"]


@needs_runtime
def test_cli_errors_are_one_line(fake_build, tmp_path):
    w = WORKLOADS / "stream-balanced.json"
    cases = [
        (("--threads", 9, "--machine", "pack:1 numa:2 core:2 pu:1", w), "--threads 9: the machine has 4 cores"),
        (("--params", tmp_path / "none.json", w), "cannot read the parameter file"),
        (("--policies", "ws,gomp", w), "'gomp'"),
    ]
    broken = json.loads((MACHINES / "vm-2core.json").read_text())
    del broken["launch_ns"]
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    cases.append((("--params", tmp_path / "broken.json", w), "missing parameter launch_ns"))
    bad = {"name": "bad", "models": "m", "program": [loop("x", schedule="fac2")]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    cases.append(((tmp_path / "bad.json",), "the engine rejected line"))
    cases.append(((w, w), "workload stream-balanced given twice"))
    for args, words in cases:
        p = ilan_sim(*args, build=fake_build)
        assert p.returncode in (1, 2), (args, p.stdout, p.stderr)
        assert words in p.stderr, (args, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert "Traceback" not in p.stderr


def test_cli_without_the_engine_says_run_make(tmp_path):
    p = ilan_sim(WORKLOADS / "stream-balanced.json", build=tmp_path)
    assert p.returncode == 1
    assert "simulator engine" in p.stderr and "run make" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


# ------------------------------------------------------- through the engine

def engine_raw(text):
    p = subprocess.run([str(ENGINE)], input=text, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return p.stdout


def simulate(m, prm, w, policy, seed=1, threads=None):
    text = sim.engine_text(m, prm, threads or m.cores, w, policy, seed, False)
    return json.loads(engine_raw(text).strip().splitlines()[-1])


ZEN4 = sim.load_params(MACHINES / "zen4-2x32.json")


def small_cg():
    """npb-cg-like with fewer iterations, to keep the test quick."""
    doc = json.loads((WORKLOADS / "npb-cg-like.json").read_text())
    doc["program"][0]["count"] = 2
    doc["program"][0]["body"][0]["count"] = 10
    return sim.check_workload(doc, "small-cg")


@needs_runtime
@needs_engine
@pytest.mark.parametrize("policy", sim.POLICIES + ("thesis+size+drift", "ilan-size-guards"))
def test_same_seed_same_result_bit_for_bit(policy):
    m = probed("pack:2 numa:4 core:4 pu:1")
    w = small_cg()
    texts = [sim.engine_text(m, ZEN4, m.cores, w, policy, 42, True) for _ in range(2)]
    assert texts[0] == texts[1]
    assert engine_raw(texts[0]) == engine_raw(texts[1])
    other = json.loads(engine_raw(sim.engine_text(m, ZEN4, m.cores, w, policy, 43, True)))
    assert other["seed"] == 43


@needs_runtime
@needs_engine
def test_numa_and_ws_tie_on_one_node():
    # one node: the NUMA-aware distribution has no locality to win, so it
    # costs what random stealing does, within a few per cent
    m = probed("pack:1 numa:1 core:8 pu:1")
    prm = params(node_bandwidth_gbs=60)
    for w in (sim.load_workload(WORKLOADS / "stream-balanced.json"), small_cg()):
        ws, numa = (float(simulate(m, prm, w, p)["time_s"]) for p in ("ws", "numa"))
        assert abs(numa / ws - 1) < 0.05, (w.name, ws, numa)


@needs_runtime
@needs_engine
@pytest.mark.parametrize("policy", sim.POLICIES)
@pytest.mark.parametrize("name", ["stream-balanced", "stream-twisted"])
def test_more_bandwidth_never_slows_a_bandwidth_bound_workload(policy, name):
    m = probed("pack:2 numa:4 core:4 pu:1")
    w = sim.load_workload(WORKLOADS / (name + ".json"))
    slow = float(simulate(m, ZEN4, w, policy)["time_s"])
    fast = float(simulate(m, dict(ZEN4, node_bandwidth_gbs=2 * ZEN4["node_bandwidth_gbs"]), w, policy)["time_s"])
    assert fast <= slow, (policy, slow, fast)


def groups_used(config, m):
    """The groups a configuration runs on: ILAN's "k group(s) ..." use k
    (a group is a node on these machines), the other policies every node."""
    import re
    found = re.match(r"(\d+) groups? ", config)
    return int(found.group(1)) if found else m.nodes


@needs_runtime
@needs_engine
@pytest.mark.parametrize("policy", sim.POLICIES)
def test_balanced_compute_takes_work_over_cores_plus_overheads(policy):
    m = probed("pack:2 numa:2 core:4 pu:1")
    cores, per_node = m.cores, m.cores // m.nodes
    prm = dict(ZEN4)
    iters, ns, reps = cores * 1000, 2000.0, 12         # 2 ms of compute per thread per execution
    w = workload({"kind": "repeat", "count": reps, "body": [
        taskloop("work", iters=iters, ns=ns, num_tasks=cores)]})
    doc = simulate(m, prm, w, policy)
    work = iters * ns * prm["compute_scale"] * 1e-9     # one execution's compute, s
    task = work / cores                                 # num_tasks(cores): one task's compute
    # ILAN explores: some executions run on fewer groups, whose cores then
    # share the work: at least work / their cores, at most an even split's
    # rounds of tasks plus one (the fullest group of a partial
    # configuration may hold a task or so more than an even share)
    configs = doc["constructs"][0]["configs"]
    assert sum(configs.values()) == reps
    lower = upper = 0.0
    for config, runs in configs.items():
        k = groups_used(config, m)
        lower += runs * work / (k * per_node)
        upper += runs * (math.ceil(cores / (k * per_node)) + (k < m.nodes)) * task
    # what one execution may add beyond its compute, from the model's own
    # costs: each thread creating, starting, claiming, stealing and waking
    # a task per core at the farthest distance (x3), a launch per group and
    # a barrier tree's levels
    costs = sum(prm[p] for p in ("task_create_ns", "task_start_ns", "claim_ns", "steal_ns",
                                 "steal_fail_ns", "wake_ns", "launch_ns"))
    bound = reps * (3 * costs * cores + 3 * prm["barrier_ns"] * math.ceil(math.log2(cores))) * 1e-9
    t = float(doc["time_s"])
    assert lower <= t <= upper + bound, (policy, configs, lower, upper, t, bound)
    if policy not in ("ilan", "thesis", "ilan-na-ws", "ilan-na-rp"):  # the exploring ones
        assert lower == pytest.approx(reps * work / cores)
        assert t <= 1.02 * lower
    busy = sum(float(th["busy_s"]) for th in doc["threads"])
    assert busy >= reps * work * 0.999


@needs_runtime
@needs_engine
def test_the_engine_output_has_what_the_table_reads():
    m = probed("pack:2 numa:2 core:2 pu:1")
    w = small_cg()
    for policy in sim.POLICIES:
        doc = simulate(m, ZEN4, w, policy)
        names = [c["name"] for c in doc["constructs"]]
        assert names == ["spmv", "dot_pq", "axpy_zr", "dot_rr", "update_p", "spmv_residual", "norm"]
        assert all(c["kind"] == "taskloop" and isinstance(c["config"], str) for c in doc["constructs"])
        assert len(doc["threads"]) == m.cores
    ilan = simulate(m, ZEN4, w, "ilan")
    assert any(c["state"] for c in ilan["constructs"])


@needs_runtime
@needs_engine
def test_an_unbound_team_keeps_no_task_to_a_group():
    # bound, each thread is a group with a place, and numa's ranges are
    # strict: nobody takes another's tasks; unbound (src/ilan/exec.c), no
    # task is strict, and a thread that empties its range takes from the
    # other's back
    m = probed("pack:1 numa:1 core:2 pu:1")
    w = workload({"kind": "repeat", "count": 4, "body": [
        taskloop("rising", iters=512, ns=20000.0, profile="linear")]})
    bound = simulate(m, params(), w, "numa")
    unbound = simulate(m, params(unbound=True), w, "numa")
    assert sum(t["steals"] for t in bound["threads"]) == 0
    assert sum(t["steals"] for t in unbound["threads"]) > 0
    assert float(unbound["time_s"]) < float(bound["time_s"])


@needs_runtime
@needs_engine
def test_uneven_cores():
    m = probed("pack:1 numa:1 core:2 pu:1")
    w = workload({"kind": "repeat", "count": 20, "body": [taskloop("even", iters=2000, ns=1000.0)]})
    even = simulate(m, params(), w, "ws")
    # a spread of 0 (or no interval) is the even machine, bit for bit
    assert simulate(m, params(speed_spread=0, speed_interval_us=100), w, "ws") == even
    assert simulate(m, params(speed_spread=0.2, speed_interval_us=0), w, "ws") == even
    prm = params(speed_spread=0.2, speed_interval_us=2000, unbound=True)
    ws = simulate(m, prm, w, "ws")
    assert ws == simulate(m, prm, w, "ws")            # deterministic
    assert ws != simulate(m, prm, w, "ws", seed=2)    # the speeds come from the seed
    # every taskloop waits for the slower of the two cores: slower than
    # cores of the mean speed
    assert float(ws["time_s"]) > float(even["time_s"])
    # ws's two equal tasks wait for the slower core; numa's ranges even it out
    assert float(simulate(m, prm, w, "numa")["time_s"]) < float(ws["time_s"])
