"""A real `ilan bench` of two kernels at tiny sizes: the table, the JSON and the chart it writes."""

import json
import os
import subprocess
import sys

from ilan import results
from ilan.kernels import TBB_FIB
from ilan.paths import REPO


def test_bench_two_kernels_tiny(tmp_path):
    out = tmp_path / "res"
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    p = subprocess.run([sys.executable, "-m", "ilan", "bench", "--size", "tiny", "--repeat", "2",
                        "--kernels", "stream,fib", "--runtimes", "libgomp,ilan",
                        "--out", str(out)], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "[1/" in p.stderr                                   # progress on stderr
    doc = json.loads((tmp_path / "res.json").read_text())
    assert results.problems(doc) == []
    assert doc["options"]["size"] == "tiny" and doc["options"]["repeat"] == 2
    cpus = len(os.sched_getaffinity(0))
    fib_threads = sorted({1, cpus})            # fib also runs on one thread by default
    tbb = [] if TBB_FIB.missing() else ["tbb"]
    got = sorted((r["kernel"], r["threads"], r["variant"], r["runtime"]) for r in doc["summary"])
    assert got == sorted([("stream", cpus, "static", "libgomp"), ("stream", cpus, "taskloop", "libgomp"),
                          ("stream", cpus, "taskloop", "ilan")]
                         + [("fib", t, "task", rt) for t in fib_threads
                            for rt in ["libgomp", "ilan"] + tbb])
    assert doc["options"]["threads"] == fib_threads
    assert doc["options"]["references"] == tbb
    assert all(r["status"] == "ok" and len(r["values"]) == 2 for r in doc["summary"])
    assert all(r["status"] == "ok" and r["runtime_self"].split()[0] == r["runtime"]
               for r in doc["runs"])
    assert all(m["verified"] == 1 for r in doc["runs"] for m in r["measurements"])
    # the second round runs the first round's jobs in reverse order
    jobs = [[(r["kernel"], r["variant"], r["runtime"], r["threads"]) for r in doc["runs"]
             if r["round"] == n] for n in (0, 1)]
    assert jobs[1] == jobs[0][::-1] and len(jobs[0]) > 1
    assert (tmp_path / "res.png").read_bytes()[:4] == b"\x89PNG"
    assert doc["chart"].endswith("res.png")
    assert "results: " in p.stdout and "stream" in p.stdout
    header = next(l for l in p.stdout.splitlines() if l.startswith("kernel"))
    assert header.split()[:2] == ["kernel", "threads"] or fib_threads == [cpus]
    assert ("/tbb" in header) == bool(tbb)


def test_a_missing_reference_is_a_note_not_a_failure(tmp_path, capsys, monkeypatch):
    from ilan import cli, kernels
    monkeypatch.setattr(kernels.Reference, "missing", lambda self: "tbb.h not found (apt-get install x)")
    status = cli.main(["bench", "--size", "tiny", "--kernels", "fib", "--runtimes", "libgomp",
                       "--threads", "2", "--no-chart", "--out", str(tmp_path / "r")])
    out = capsys.readouterr().out
    assert status == 0
    assert "tbb: reference line skipped: tbb.h not found (apt-get install x)" in out
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [(r["runtime"], r["threads"]) for r in doc["summary"]] == [("libgomp", 2)]
