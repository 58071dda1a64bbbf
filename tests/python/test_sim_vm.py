"""The fitted model of the development VM: on sim/machines/vm-2core.json with 2 threads, the `ilan bench` kernels' workloads (sim/workloads/bench-*.json) put ILAN's three modes in the measured order wherever bench/results/ilan-modes-20261127.json resolves it.

Which pairs are checked is computed from the results file: the paired
ratios of `ilan bench --pair` (python/ilan/table.py, `paired`: the median
of the per-round ratios and its 95 % binomial interval), one per kernel
and pair of modes; a pair whose interval excludes 1 is an order the
simulator must reproduce (the simulated ratio on the same side of 1).
Pairs the measurement does not resolve are not asserted;
`test_summary_of_every_pair` prints all of them, measured and simulated
(`pytest -rP` or `-s` shows it).

A few resolved orders are beyond the engine's model of this VM: they are
listed in KNOWN_GAPS with the reason, and run as strict xfails, so that a
model that comes to reproduce one fails the test until the entry goes.
"""

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ilan import IlanError, sim, table
from ilan.paths import REPO, lib_dir

RESULTS = REPO / "bench" / "results" / "ilan-modes-20261127.json"
PARAMS = REPO / "sim" / "machines" / "vm-2core.json"
WORKLOADS = REPO / "sim" / "workloads"
KERNELS = ("stream", "jacobi", "matmul", "spmv", "sweep", "mg", "mandelbrot", "contention",
           "cached", "cg")
THREADS = 2
# The simulator's policy of each runtime mode of the results file.
MODES = {"ws": "ilan-ws", "numa": "ilan-numa", "ilan": "ilan"}
# (a, b): the ratio a / b, as the results file's --pair options were given.
PAIRS = (("ilan", "ws"), ("numa", "ws"), ("ilan", "numa"))

# Orders the measurement resolves but the engine cannot reproduce on this
# VM's model without absurd parameters. On one NUMA node with one shared
# L3 the engine has no term that depends on which core runs which part of
# the data, and its ws thief picks up the creator's second task at once
# (wake + steal, about 1.4 us); so these kernels simulate within 1 % in
# every mode, ws level with numa or slightly ahead (ILAN pays its
# exploration).
KNOWN_GAPS = {
    ("stream", "numa", "ws"):
        "numa faster than ws on one node: the engine's bandwidth and cache terms are the same "
        "whichever thread runs which half of a uniform triad, so ws and numa tie",
    ("mg", "ilan", "ws"):
        "ilan faster than ws: the simulated ws starts its two tasks together at every size and "
        "ILAN pays a calibration per (taskloop, size) identity, 60 of them here",
    ("cached", "ilan", "ws"):
        "ilan faster than ws by about 7 us per 56 us taskloop: the engine's ws thief is at most "
        "1.4 us late, and per-core (L2) affinity is not modelled (vm-2core's cache is the shared L3)",
}


def measured_pairs() -> dict[tuple[str, str, str], dict[str, Any]]:
    """(kernel, a, b) -> table.paired's row for the taskloop variant at 2
    threads, for every kernel and pair of modes the results file has."""
    runs = json.loads(RESULTS.read_text())["runs"]
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for a, b in PAIRS:
        for row in table.paired(runs, MODES[a], MODES[b]):
            if row["variant"] == "taskloop" and row["threads"] == THREADS and row["kernel"] in KERNELS:
                out[(row["kernel"], a, b)] = row
    return out


def resolved(row: dict[str, Any]) -> bool:
    """Whether the row's 95 % interval excludes 1 (an order, not noise)."""
    return row["lo"] is not None and (row["hi"] < 1 or row["lo"] > 1)


MEASURED = measured_pairs()
ORDERS = sorted(k for k, row in MEASURED.items() if resolved(row))


def order_id(key: tuple[str, str, str]) -> str:
    kernel, a, b = key
    return "%s-%s%s%s" % (kernel, a, "<" if MEASURED[key]["hi"] < 1 else ">", b)


def order_params() -> list[Any]:
    return [pytest.param(k, id=order_id(k), marks=pytest.mark.xfail(
        reason="model gap: " + KNOWN_GAPS[k], strict=True)) if k in KNOWN_GAPS else
        pytest.param(k, id=order_id(k)) for k in ORDERS]


@pytest.fixture(scope="module")
def simulated() -> dict[str, dict[str, float]]:
    """kernel -> policy -> simulated time (s): every bench workload under
    ws, numa and ilan on vm-2core, 2 threads, seed 1 (one run each)."""
    engine = sim.engine_path()
    if not os.access(engine, os.X_OK):
        pytest.skip("the simulator engine %s is not built (make)" % engine)
    if not (lib_dir() / "libgomp.so.1").exists():
        pytest.skip("ilan is not built (make): ilan sim reads the machine through it")
    params = sim.load_params(PARAMS)
    try:
        machine = sim.read_machine(str(params["topology"]))
    except IlanError as e:
        pytest.skip("the runtime could not read vm-2core's topology: %s" % e)
    workloads = [sim.load_workload(bench_file(k)) for k in KERNELS]
    run = sim.Sim(machine, params, str(PARAMS), workloads, list(MODES), threads=THREADS)
    results = sim.run(run, engine)
    return {k: {p: float(results["bench-" + k][p]["time_s"]) for p in MODES} for k in KERNELS}


def bench_file(kernel: str) -> Path:
    return WORKLOADS / ("bench-%s.json" % kernel)


def test_the_results_file_pairs_every_kernel_and_mode():
    # the order checks below come from this file: each of its 30 pairs has
    # enough rounds for an interval, so an unresolved pair is noise, not a gap
    assert sorted(MEASURED) == sorted((k, a, b) for k in KERNELS for a, b in PAIRS)
    assert all(row["lo"] is not None for row in MEASURED.values())
    assert ORDERS, "no measured order to check"


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_kernel_has_a_workload(kernel: str):
    w = sim.load_workload(bench_file(kernel))
    assert w.name == "bench-" + kernel
    doc = json.loads(bench_file(kernel).read_text())
    assert "bench/kernels/%s.c" % kernel in doc["models"]
    assert RESULTS.name in doc["notes"], "notes must name the measurement the figures come from"


@pytest.mark.parametrize("key", order_params())
def test_the_simulated_order_is_the_measured_one(simulated: dict[str, dict[str, float]],
                                                 key: tuple[str, str, str]):
    kernel, a, b = key
    row = MEASURED[key]
    ratio = simulated[kernel][a] / simulated[kernel][b]
    faster = row["hi"] < 1   # measured: a faster than b
    assert (ratio < 1) if faster else (ratio > 1), (
        "%s: measured %s/%s %.3f (%.3f-%.3f), simulated %.3f (%s %.4f s, %s %.4f s)" % (
            kernel, a, b, row["median"], row["lo"], row["hi"], ratio, a, simulated[kernel][a], b,
            simulated[kernel][b]))


def test_the_model_is_of_this_vm(simulated: dict[str, dict[str, float]]):
    # the workloads' figures come from the results file: the simulated ws
    # times must be the measured ilan-ws medians within 15 % (a wrong size,
    # count or unit in a workload shows here first)
    medians = {s["kernel"]: s["median"] for s in json.loads(RESULTS.read_text())["summary"]
               if s["variant"] == "taskloop" and s["runtime"] == MODES["ws"]}
    off = {k: simulated[k]["ws"] / medians[k] for k in KERNELS
           if not 0.85 <= simulated[k]["ws"] / medians[k] <= 1.15}
    assert not off, "simulated / measured ws time beyond 15 %%: %s" % off


def test_summary_of_every_pair(simulated: dict[str, dict[str, float]]):
    lines = ["%-10s %-10s %8s %13s %9s  %s" % ("kernel", "pair", "measured", "95% interval",
                                               "simulated", "checked")]
    for (kernel, a, b), row in sorted(MEASURED.items()):
        ratio = simulated[kernel][a] / simulated[kernel][b]
        how = ("known model gap" if (kernel, a, b) in KNOWN_GAPS else "asserted") \
            if resolved(row) else "not resolved by the measurement"
        lines.append("%-10s %-10s %8.3f %6.3f-%6.3f %9.3f  %s" % (
            kernel, "%s/%s" % (a, b), row["median"], row["lo"], row["hi"], ratio, how))
    print("\n".join(lines))
    assert len(lines) == 1 + len(KERNELS) * len(PAIRS)
