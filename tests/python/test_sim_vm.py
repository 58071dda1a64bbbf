"""The fitted model of the development VM: on sim/machines/vm-2core.json with 2 threads, the `ilan bench` kernels' workloads (sim/workloads/bench-*.json) put ILAN's three modes in the measured order wherever bench/results/ilan-modes-20261127.json resolves it.

Which pairs are checked is computed from the results file: the paired
ratios of `ilan bench --pair` (python/ilan/table.py, `paired`: the median
of the per-round ratios and its 95 % binomial interval), one per kernel
and pair of modes; a pair whose interval excludes 1 is an order the
simulator must reproduce (the simulated ratio on the same side of 1).
Pairs the measurement does not resolve are not asserted;
`test_summary_of_every_pair` prints all of them, measured and simulated
(`pytest -rP` or `-s` shows it).

The VM's model has uneven cores (its two vCPUs' speeds drawn per interval
from the seed), so, as the bench runs each mode once per round, the
simulation runs each workload once per seed (SEEDS, as many as the
results file's rounds) and compares the median of the per-seed ratios.

An order beyond the engine's model would be listed in KNOWN_GAPS with the
reason, and run as a strict xfail, so that a model that comes to
reproduce it fails the test until the entry goes.
"""

import json
import os
import statistics
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
# VM's model, with the reason (none since the model has uneven cores and
# unbound teams: stream numa/ws, mg ilan/ws and cached ilan/ws, which ws's
# two equal tasks lose to ranges that even out the vCPUs' speed gap).
KNOWN_GAPS: dict[tuple[str, str, str], str] = {}
# Seeds of the simulation: one per round of the results file (9).
SEEDS = tuple(range(1, 10))


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
def simulated() -> dict[str, dict[str, list[float]]]:
    """kernel -> policy -> simulated times (s), one per seed of SEEDS: every
    bench workload under ws, numa and ilan on vm-2core, 2 threads."""
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
    out: dict[str, dict[str, list[float]]] = {k: {p: [] for p in MODES} for k in KERNELS}
    for seed in SEEDS:
        run = sim.Sim(machine, params, str(PARAMS), workloads, list(MODES), seed=seed,
                      threads=THREADS)
        results = sim.run(run, engine)
        for k in KERNELS:
            for p in MODES:
                out[k][p].append(float(results["bench-" + k][p]["time_s"]))
    return out


def sim_ratio(simulated: dict[str, dict[str, list[float]]], kernel: str, a: str, b: str) -> float:
    """The median over the seeds of the simulated ratio a / b, as the
    results file's paired ratio is the median over its rounds."""
    return statistics.median(x / y for x, y in zip(simulated[kernel][a], simulated[kernel][b],
                                                   strict=True))


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
def test_the_simulated_order_is_the_measured_one(simulated: dict[str, dict[str, list[float]]],
                                                 key: tuple[str, str, str]):
    kernel, a, b = key
    row = MEASURED[key]
    ratio = sim_ratio(simulated, kernel, a, b)
    faster = row["hi"] < 1   # measured: a faster than b
    assert (ratio < 1) if faster else (ratio > 1), (
        "%s: measured %s/%s %.3f (%.3f-%.3f), simulated %.3f (median over seeds; %s %.4f s, "
        "%s %.4f s)" % (kernel, a, b, row["median"], row["lo"], row["hi"], ratio, a,
                        statistics.median(simulated[kernel][a]), b,
                        statistics.median(simulated[kernel][b])))


def test_the_model_is_of_this_vm(simulated: dict[str, dict[str, list[float]]]):
    # the workloads' figures come from the results file: the simulated ws
    # times must be the measured ilan-ws medians within 15 % (a wrong size,
    # count or unit in a workload shows here first)
    medians = {s["kernel"]: s["median"] for s in json.loads(RESULTS.read_text())["summary"]
               if s["variant"] == "taskloop" and s["runtime"] == MODES["ws"]}
    ws = {k: statistics.median(simulated[k]["ws"]) / medians[k] for k in KERNELS}
    off = {k: r for k, r in ws.items() if not 0.85 <= r <= 1.15}
    assert not off, "simulated / measured ws time beyond 15 %%: %s" % off


def test_summary_of_every_pair(simulated: dict[str, dict[str, list[float]]]):
    lines = ["%-10s %-10s %8s %13s %9s  %s" % ("kernel", "pair", "measured", "95% interval",
                                               "simulated", "checked")]
    for (kernel, a, b), row in sorted(MEASURED.items()):
        ratio = sim_ratio(simulated, kernel, a, b)
        how = ("known model gap" if (kernel, a, b) in KNOWN_GAPS else "asserted") \
            if resolved(row) else "not resolved by the measurement"
        lines.append("%-10s %-10s %8.3f %6.3f-%6.3f %9.3f  %s" % (
            kernel, "%s/%s" % (a, b), row["median"], row["lo"], row["hi"], ratio, how))
    print("\n".join(lines))
    assert len(lines) == 1 + len(KERNELS) * len(PAIRS)
