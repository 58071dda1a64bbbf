"""A real `ilan bench` of two kernels at tiny sizes: the table, the JSON and the chart it writes."""

import json
import os
import subprocess
import sys

from ilan import results
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
    got = {(r["kernel"], r["variant"], r["runtime"]) for r in doc["summary"]}
    assert got == {("stream", "static", "libgomp"), ("stream", "taskloop", "libgomp"),
                   ("stream", "taskloop", "ilan"), ("fib", "task", "libgomp"),
                   ("fib", "task", "ilan")}
    assert all(r["status"] == "ok" and len(r["values"]) == 2 for r in doc["summary"])
    assert all(r["status"] == "ok" and r["runtime_self"].split()[0] ==
               ("ilan" if r["runtime"] == "ilan" else "libgomp") for r in doc["runs"])
    assert all(m["verified"] == 1 for r in doc["runs"] for m in r["measurements"])
    assert (tmp_path / "res.png").read_bytes()[:4] == b"\x89PNG"
    assert doc["chart"].endswith("res.png")
    assert "results: " in p.stdout and "stream" in p.stdout
