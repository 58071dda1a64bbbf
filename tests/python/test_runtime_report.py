"""The ILAN_REPORT file the runtime itself writes: its schema, what-if topologies, and what the tool makes of it."""

import json
import os
import subprocess

from ilan import report, topo
from ilan.kernels import find
from ilan.runtimes import ilan_mode


def run_report(tmp_path, mode, reps, extra_env=None, threads=2):
    """Runs the contention kernel (tiny, 2 threads unless told) on ilan in
    `mode` with ILAN_REPORT set; returns the parsed report."""
    kernel = find(["contention"])[0]
    command = kernel.build()
    path = tmp_path / ("report-%s.json" % mode)
    env = ilan_mode(mode).environ(threads)
    env["ILAN_REPORT"] = str(path)
    env.update(extra_env or {})
    p = subprocess.run(command + ["--variant", "taskloop", "--n", "4000", "--reps", str(reps)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "verified=1" in p.stdout
    return json.loads(path.read_text())


def test_ilan_report_schema(tmp_path):
    doc = run_report(tmp_path, "ilan", reps=30)
    assert doc["mode"] == "ilan" and doc["steal_policy_forced"] is None
    groups = doc["topology"]["groups"]
    assert [g["id"] for g in groups] == list(range(len(groups)))
    loops = doc["taskloops"]
    assert len(loops) == 1, "one taskloop identity: the kernel's loop"
    loop = loops[0]
    assert loop["symbol"].startswith("body._omp_fn")
    assert int(loop["fn"], 16) > 0 and int(loop["module_offset"], 16) > 0
    assert loop["iterations"] == 4000 and loop["executions"] == 30
    assert loop["team_workers"] == 2 and loop["explorations"] >= 1
    # The first run calibrates (measures the work), the others are samples.
    assert loop["work_s"] > 0
    assert sum(c["runs"] for c in loop["configs"]) == 29
    for c in loop["configs"]:
        assert 1 <= len(c["groups"]) <= len(groups)
        assert set(c["groups"]) <= set(range(len(groups)))
        assert c["steal"] in ("strict", "full")
        assert len(c["times_s"]) == min(c["runs"], 16)
        assert min(c["times_s"]) <= c["median_s"] <= max(c["times_s"])
        assert len(c["group_times_s"]) == len(c["groups"])
    # The first configuration explored is every group, strict.
    first = loop["configs"][0]
    assert first["groups"] == list(range(len(groups))) and first["steal"] == "strict"
    if loop["state"] == "settled":
        assert loop["chosen"]["steal"] in ("strict", "full")
    text = report.render(doc)
    assert "body._omp_fn" in text and "30 executions" in text


def test_unbound_groups_with_more_threads_than_cpus(tmp_path):
    """An unbound one-node team of more threads than CPUs has as many groups
    as CPUs, without places, threads dealt to them in turn; with no more
    threads than CPUs each thread is its own group (on a what-if one-node
    machine of as many cores as this one has CPUs)."""
    cpus = len(os.sched_getaffinity(0))
    machine = {"OMP_PROC_BIND": "false", "HWLOC_SYNTHETIC": "numa:1 core:%d pu:1" % cpus}
    for threads in (cpus, cpus + 1, 4 * cpus):
        doc = run_report(tmp_path, "ilan", reps=12, threads=threads, extra_env=machine)
        assert doc["topology"]["nodes"] == 1 and "unbound" in doc["topology"]["binding"]
        (loop,) = doc["taskloops"]
        assert loop["team_workers"] == threads and loop["group_kind"] == "core"
        workers = loop["group_workers"]
        assert len(workers) == min(threads, cpus), (threads, workers)
        assert sum(workers) == threads and max(workers) - min(workers) <= 1


def test_numa_mode_is_fixed_and_ws_records_nothing(tmp_path):
    numa = run_report(tmp_path, "numa", reps=5)
    (loop,) = numa["taskloops"]
    assert loop["state"] == "fixed" and loop["chosen"] is None and loop["work_s"] is None
    assert [(c["steal"], c["runs"]) for c in loop["configs"]] == [("strict", 5)]
    full = run_report(tmp_path, "numa", reps=3, extra_env={"ILAN_STEAL_POLICY": "full"})
    assert full["steal_policy_forced"] == "full"
    assert [c["steal"] for c in full["taskloops"][0]["configs"]] == ["full"]
    ws = run_report(tmp_path, "ws", reps=3)
    assert ws["mode"] == "ws" and ws["taskloops"] == []


def test_whatif_topology_groups_by_node(monkeypatch):
    monkeypatch.setenv("HWLOC_SYNTHETIC", "pack:2 numa:2 core:2 pu:1")
    t = topo.probe(threads=8)
    assert t["whatif"] and t["nodes"] == 4 and t["cores"] == 8
    assert t["group_kind"] == "node"
    assert [g["cores"] for g in t["groups"]] == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert t["distances"][0][1] < t["distances"][0][2]
    assert "4 NUMA node(s)" in topo.describe(t)
