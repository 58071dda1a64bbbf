"""Every kernel, in every variant, verifies its result under every runtime and ilan mode (tiny sizes); the rows of taskbench, the trees of uts and the oneTBB references of fib and uts."""

import subprocess

import pytest

from ilan import kernels, runner
from ilan.runtimes import all_runtimes

RUNTIMES = all_runtimes()
# overhead programs: one case per variant_env entry (schedbench_runtime's
# OMP_SCHEDULE values), else one; a variant only on the runtimes that know it;
# the loop kernels (loops.c) not on ilan-ws/ilan-numa, whose modes change
# taskloops only
CASES = [(k, v, rt) for k in kernels.KERNELS
         for v in (k.variants if k.kind == "kernel" else (list(k.variant_env) or [None]))
         for rt in RUNTIMES
         if k.runs_on(v, rt) and (k.source != "loops.c" or rt.name in ("libgomp", "libomp", "ilan"))]


@pytest.mark.parametrize("kernel,variant,runtime", CASES,
                         ids=["%s-%s-%s" % (k.name, v or "rows", rt.name) for k, v, rt in CASES])
def test_kernel_verifies(kernel, variant, runtime):
    why = runtime.missing()
    if why:
        pytest.skip("%s: %s" % (runtime.name, why))
    rec = runner.run_one(kernel, variant, runtime, kernel.build(), "tiny", 2, 60)
    assert rec["status"] == "ok", rec["reason"]
    assert rec["runtime_self"].split()[0] == runtime.family
    if kernel.kind == "kernel":
        (m,) = rec["measurements"]
        assert m["verified"] == 1 and m["variant"] == variant and m["value"] > 0
    else:
        assert rec["measurements"] and all(m["value"] is not None for m in rec["measurements"])


GOMP = next(rt for rt in RUNTIMES if rt.name == "libgomp")
TASKBENCH_ROWS = ["parallel task", "parallel if(0) task", "tree, work at inner nodes",
                  "tree, work at leaves", "nested task", "master task", "master task, others busy",
                  "master task with dependences", "taskloop num_tasks(iterations)",
                  "taskloop grainsize(1)"]


@pytest.mark.parametrize("threads", [1, 3])
def test_taskbench_has_every_pattern(threads):
    k = kernels.find(["taskbench"])[0]
    rec = runner.run_one(k, None, GOMP, k.build(), "tiny", threads, 60)
    assert rec["status"] == "ok", rec["reason"]
    assert [m["variant"] for m in rec["measurements"]] == TASKBENCH_ROWS
    assert {m["unit"] for m in rec["measurements"]} == {"us/task", "us/taskloop"}


@pytest.mark.parametrize("size, nodes", [("tiny", 100177), ("quick", 1003849)])
def test_uts_sizes_have_the_node_counts_kernels_py_names(size, nodes):
    k = kernels.find(["uts"])[0]
    rec = runner.run_one(k, "task", GOMP, k.build(), size, 2, 60)
    assert rec["status"] == "ok", rec["reason"]
    (m,) = rec["measurements"]
    assert m["checksum"] == nodes and m["expected"] == nodes


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name,checksum", [("fib", 610), ("uts", 100177)])  # fib(15); the tiny tree
def test_the_tbb_reference_runs_on_the_threads_asked(name, checksum, threads):
    kernel = kernels.find([name])[0]
    ref = kernel.reference
    assert ref is not None
    why = ref.missing()
    if why:
        pytest.skip(why)
    rec = runner.run_one(kernel, "task", ref.as_runtime(), ref.build(), "tiny", threads, 60)
    assert rec["status"] == "ok", rec["reason"]
    assert rec["runtime_self"] == "tbb"
    (m,) = rec["measurements"]
    assert m["verified"] == 1 and m["checksum"] == checksum and m["value"] > 0
    p = subprocess.run(ref.build() + kernel.argv("task", "tiny"), capture_output=True, text=True,
                       env=ref.as_runtime().environ(threads), timeout=60)
    assert " threads=%d " % threads in p.stdout


STREAM_VARIANTS = ["plain", "nested", "twisted", "imbalanced"]


@pytest.mark.parametrize("name", ["libgomp", "ilan"])
def test_stream_numa_runs_ilan_placements_on_ilan_only(name):
    k = kernels.find(["stream_numa"])[0]
    rt = next(r for r in RUNTIMES if r.name == name)
    rec = runner.run_one(k, None, rt, k.build(), "tiny", 2, 60)
    assert rec["status"] == "ok", rec["reason"]
    rows = [m["variant"] for m in rec["measurements"]]
    placements = ["first-touch"] + (["bloc", "interleaved", "next-touch"] if name == "ilan" else [])
    expected = ["%s/%s" % (v, p) for p in placements for v in STREAM_VARIANTS]
    expected += ["next-touch/page"] if name == "ilan" else []
    expected += ["alloc/malloc"] + (["alloc/bloc", "alloc/interleaved"] if name == "ilan" else [])
    assert rows == expected
