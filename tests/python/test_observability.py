"""What ILAN_COUNTERS, ILAN_REPORT's counter sections and ILAN_TRACE produce on real runs: per-thread counts that add up to what the program did, OS counters that see a crowded CPU (or say why they cannot), and a trace file that is valid trace-event JSON whose slices nest and match the counters."""

import json
import os
import re
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ilan.paths import build_dir

LIB = build_dir() / "lib"
N_TASKS = 3000

# Tasks made by one thread (all done before the region ends), a taskloop,
# and a busy region; with "seccomp" as first argument the program first
# forbids itself perf_event_open (EACCES), as a container's filter would.
PROGRAM = textwrap.dedent("""\
    #define _GNU_SOURCE
    #include <errno.h>
    #include <linux/filter.h>
    #include <linux/seccomp.h>
    #include <stddef.h>
    #include <stdio.h>
    #include <string.h>
    #include <sys/prctl.h>
    #include <sys/syscall.h>

    static void forbid_perf(void)
    {
        struct sock_filter f[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = {sizeof f / sizeof f[0], f};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
            perror("seccomp");
    }

    static volatile double sink;

    static void work(int i)
    {
        double x = 0;
        for (int k = 0; k < 300 + (i %% 5) * 200; k++)
            x += k * 0.25;
        sink = x;
    }

    int main(int argc, char **argv)
    {
        if (argc > 1 && strcmp(argv[1], "seccomp") == 0)
            forbid_perf();
    #pragma omp parallel
    #pragma omp single
        for (int i = 0; i < %(n)d; i++) {
    #pragma omp task firstprivate(i)
            work(i);
        }
        long sum = 0;
    #pragma omp parallel
    #pragma omp single
    #pragma omp taskloop num_tasks(24) reduction(+ : sum)
        for (int i = 0; i < 24000; i++)
            sum += i;
    #pragma omp parallel
        {
            double x = 0;
            for (long k = 0; k < 100000000; k++)
                x += k * 0.5;
            sink = x;
        }
        printf("sum=%%ld\\n", sum);
        return 0;
    }
    """) % {"n": N_TASKS}


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("obs")
    (d / "p.c").write_text(PROGRAM)
    exe = d / "p"
    subprocess.run(["gcc", "-fopenmp", "-O1", "-g", str(d / "p.c"), "-o", str(exe)], check=True)
    return exe


def run(exe: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "ILAN_"))}
    full.update({"LD_LIBRARY_PATH": str(LIB), "OMP_NUM_THREADS": "2"})
    full.update(env)
    p = subprocess.run([str(exe), *args], env=full, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "sum=287988000\n"
    return p


def total(doc: dict[str, Any], name: str) -> int:
    return sum(t["counters"][name] for t in doc["threads"])


def test_the_report_counts_every_task_once_per_thread_and_per_region(program, tmp_path):
    report = tmp_path / "r.json"
    p = run(program, {"ILAN_REPORT": str(report)})
    assert p.stderr == ""
    doc = json.loads(report.read_text())
    assert doc["counters"]["level"] == "runtime"
    assert len(doc["threads"]) == 2
    assert total(doc, "tasks_created") == N_TASKS + 24
    assert total(doc, "tasks_executed") == N_TASKS + 24
    assert total(doc, "taskloop_tasks") == 24
    foreign = total(doc, "tasks_executed_foreign")
    # the taskloop's tasks come from ILAN's group queues, the others are stolen
    assert foreign <= total(doc, "steals_local") + total(doc, "steals_remote") + 24
    for t in doc["threads"]:
        assert set(t["time_s"]) == {"task", "create", "taskwait", "barrier", "stall", "sleep",
                                    "idle"}
        assert t["time_s"]["task"] > 0 and t["os"] is None
    assert doc["os"]["requested"] is False and doc["os"]["available"] is False
    parallel = [r for r in doc["regions"] if r["kind"] == "parallel"]
    assert sorted(r["symbol"] for r in parallel) == ["main._omp_fn.0", "main._omp_fn.2",
                                                     "main._omp_fn.4"]
    assert all(r["calls"] == 1 and r["threads"] == 2 for r in parallel)
    first = next(r for r in parallel if r["symbol"] == "main._omp_fn.0")
    assert first["counters"]["tasks_created"] == N_TASKS
    loops = [r for r in doc["regions"] if r["kind"] == "taskloop"]
    assert len(loops) == 1 and loops[0]["tasks"] == 24 and loops[0]["calls"] == 1


def test_os_counters_see_four_threads_crowding_two_cpus(program, tmp_path):
    report = tmp_path / "r.json"
    run(program, {"ILAN_REPORT": str(report), "ILAN_COUNTERS": "os", "OMP_NUM_THREADS": "4"})
    doc = json.loads(report.read_text())
    if not doc["os"]["available"]:
        pytest.skip("perf_event_open refused here: %s" % doc["os"]["reason"])
    assert len(doc["threads"]) == 4
    assert all(t["os"] is not None for t in doc["threads"])
    assert sum(t["os"]["context_switches"] for t in doc["threads"]) > 0
    assert doc["os"]["noise"]["context_switches"] > 0
    busy = next(r for r in doc["regions"] if r["symbol"] == "main._omp_fn.4")
    assert busy["os"]["context_switches"] > 0 and busy["os"]["task_clock_s"] > 0
    # four busy threads on two CPUs are preempted: involuntary switches, apart
    # from the voluntary ones (getrusage's split, read at the same boundaries)
    assert busy["os"]["involuntary_switches"] > 0
    assert all(t["os"]["involuntary_switches"] >= 0 and t["os"]["voluntary_switches"] >= 0
               for t in doc["threads"])
    noise = doc["os"]["noise"]
    assert noise["involuntary_switches"] == sum(t["os"]["involuntary_switches"]
                                                for t in doc["threads"])
    assert noise["voluntary_switches"] == sum(t["os"]["voluntary_switches"] for t in doc["threads"])


def test_a_refused_perf_event_open_leaves_the_program_and_its_runtime_counters(program, tmp_path):
    report = tmp_path / "r.json"
    p = run(program, {"ILAN_REPORT": str(report), "ILAN_COUNTERS": "os"}, "seccomp")
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ilan: ILAN_COUNTERS: perf_event_open: not permitted")
    doc = json.loads(report.read_text())
    assert doc["os"]["requested"] is True and doc["os"]["available"] is False
    assert "not permitted" in doc["os"]["reason"]
    assert all(t["os"] is None for t in doc["threads"])
    assert total(doc, "tasks_executed") == N_TASKS + 24


def test_counters_alone_print_a_table_on_stderr_and_bad_values_one_line(program):
    p = run(program, {"ILAN_COUNTERS": "runtime"})
    assert p.stderr.startswith("ilan counters (runtime, clock ")
    p = run(program, {"ILAN_COUNTERS": "lots", "ILAN_TRACE_TASKS": "1/0"})
    assert p.stderr.splitlines() == [
        "ilan: Invalid value for environment variable ILAN_COUNTERS: 'lots' (off, runtime, os or "
        "all); using the default",
        "ilan: Invalid value for environment variable ILAN_TRACE_TASKS: '1/0' (1/N, all or none; "
        "every task is traced); using the default"]


def nested_ok(slices: list[dict[str, Any]]) -> bool:
    """Whether the X slices of one thread nest properly (by time)."""
    eps = 0.002  # us: the file's rounding
    stack: list[tuple[float, float]] = []
    for e in sorted(slices, key=lambda e: (e["ts"], -e["dur"])):
        start, end = e["ts"], e["ts"] + e["dur"]
        while stack and start >= stack[-1][1] - eps:
            stack.pop()
        if stack and end > stack[-1][1] + eps:
            return False
        stack.append((start, end))
    return True


def test_the_trace_is_trace_event_json_whose_slices_nest_and_match_the_counters(program, tmp_path):
    trace, report = tmp_path / "t.json", tmp_path / "r.json"
    run(program, {"ILAN_TRACE": str(trace), "ILAN_REPORT": str(report), "ILAN_COUNTERS": "os"})
    doc = json.loads(report.read_text())
    tr = json.loads(trace.read_text())
    events = tr["traceEvents"]
    assert tr["otherData"]["dropped_events"] == 0
    names = {e["args"]["name"] for e in events if e["ph"] == "M"}
    assert len(names) == len(doc["threads"])
    by_tid: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        assert e["ph"] in ("X", "i", "M") and "pid" in e and "tid" in e
        if e["ph"] == "X":
            assert e["dur"] >= 0
            by_tid.setdefault(e["tid"], []).append(e)
    for tid, slices in by_tid.items():
        assert nested_ok(slices), "thread %d's slices overlap" % tid
        regions = [e for e in slices if e["name"] == "parallel"]
        for task in (e for e in slices if e["name"] == "task"):
            assert any(r["ts"] - 0.002 <= task["ts"] and
                       task["ts"] + task["dur"] <= r["ts"] + r["dur"] + 0.002 for r in regions)
    xs = [e for e in events if e["ph"] == "X"]
    # a task slice per queued task, and per range-launch runner (its
    # claimed tasks run inside it as included ones)
    queued = total(doc, "tasks_executed") - total(doc, "tasks_included") + total(doc, "range_runners")
    assert sum(e["name"] == "task" for e in xs) == queued
    # a region slice per region a thread took part in, and per return of a
    # worker that had left it to help with its tasks (marked help)
    helps = [e for e in xs if e["name"] == "parallel" and e["args"].get("help")]
    assert len(helps) == total(doc, "region_helps")
    assert sum(e["name"] == "parallel" for e in xs) == total(doc, "regions") + len(helps)
    assert sum(e["name"] == "taskloop" for e in xs) == 1
    assert sum(e["name"] == "sleep" for e in xs) == total(doc, "sleeps")
    steals = [e for e in events if e["name"] == "steal"]
    assert len(steals) == total(doc, "steals_local") + total(doc, "steals_remote")
    loop = next(e for e in xs if e["name"] == "taskloop")
    assert loop["args"]["fn"] == "main._omp_fn.3" and loop["args"]["tasks"] == 24
    assert loop["args"]["steal"] in ("strict", "full") and loop["args"]["workers"] >= 1
    if doc["os"]["available"]:
        assert sum(e["name"] == "os" for e in events) == total(doc, "regions") + len(helps)


def test_task_sampling_keeps_one_task_slice_in_n(program, tmp_path):
    trace, report = tmp_path / "t.json", tmp_path / "r.json"
    run(program, {"ILAN_TRACE": str(trace), "ILAN_REPORT": str(report), "ILAN_TRACE_TASKS": "1/10"})
    doc = json.loads(report.read_text())
    tr = json.loads(trace.read_text())
    assert tr["otherData"]["task_sampling"] == 10
    per_thread = [t["counters"]["tasks_executed"] - t["counters"]["tasks_included"] +
                  t["counters"]["range_runners"] for t in doc["threads"]]
    tasks = sum(e["name"] == "task" for e in tr["traceEvents"])
    assert tasks == sum((n + 9) // 10 for n in per_thread)


def test_ilan_report_prints_the_counter_tables_and_draws_both_charts(program, tmp_path, capsys):
    from ilan import cli
    report = tmp_path / "r.json"
    run(program, {"ILAN_REPORT": str(report), "ILAN_COUNTERS": "os", "OMP_NUM_THREADS": "3"})
    assert cli.main(["report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "counters: os, clock " in out and "3 thread(s)" in out
    assert "time per thread (s)" in out and "regions and taskloops" in out
    assert not re.search(r"(?<![\w.])-1(\.0+)?(?![\w.])", out)  # no -1 for a missing value
    assert "chart: %s" % (tmp_path / "r-threads.png") in out
    assert (tmp_path / "r-threads.png").read_bytes()[:4] == b"\x89PNG"
    trace = tmp_path / "t.json"
    run(program, {"ILAN_TRACE": str(trace)})
    assert cli.main(["report", "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("trace: ") and "ilan thread 0" in out


@pytest.mark.parametrize("contents, message", [
    (None, "cannot read"),
    ("", "is not JSON"),
    ("{\"taskloops\": [", "is not JSON"),
    ("[1, 2]", "is not an ILAN_REPORT file"),
    ("{\"taskloops\": 5}", "does not have the shape"),
    ("{\"taskloops\": [], \"threads\": [{\"id\": 0}], \"counters\": {}}", "does not have the shape"),
])
def test_ilan_report_on_a_bad_file_says_so_in_one_line(tmp_path, capsys, contents, message):
    from ilan import cli
    f = tmp_path / "bad.json"
    if contents is not None:
        f.write_text(contents)
    assert cli.main(["report", str(f)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("ilan: error: ") and message in err[0]
    assert cli.main(["report", "--trace", str(f)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("ilan: error: ")


def test_ilan_report_with_an_unwritable_chart_path_says_so_in_one_line(program, tmp_path, capsys):
    from ilan import cli
    report = tmp_path / "r.json"
    run(program, {"ILAN_REPORT": str(report)})
    assert cli.main(["report", str(report), "--png", str(tmp_path / "no" / "such" / "x.png")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "cannot write the chart" in err[0]


# The master creates a region's tasks only after the worker has left the
# region (it found no task pending at the end barrier): the worker comes
# back to help (team_help). Then a taskloop whose share each thread runs.
HELP_PROGRAM = textwrap.dedent("""\
    #include <omp.h>
    #include <stdio.h>
    #include <time.h>

    static void spin_ns(long ns)
    {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        do
            clock_gettime(CLOCK_MONOTONIC, &b);
        while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
    }

    int main(void)
    {
        for (int r = 0; r < 2; r++) {
    #pragma omp parallel
            if (omp_get_thread_num() == 0) {
                spin_ns(50000000);
                for (int i = 0; i < 100; i++) {
    #pragma omp task
                    spin_ns(1000000);
                }
            }
        }
        long sum = 0;
    #pragma omp parallel
    #pragma omp single
    #pragma omp taskloop num_tasks(24) reduction(+ : sum)
        for (int i = 0; i < 24000; i++) {
            sum += i;
            if (i % 1000 == 0)
                spin_ns(1000000);
        }
        printf("sum=%ld\\n", sum);
        return 0;
    }
    """)


def test_a_worker_back_to_help_and_a_taskloop_share_are_measured_inside_their_records(tmp_path):
    (tmp_path / "h.c").write_text(HELP_PROGRAM)
    exe = tmp_path / "h"
    subprocess.run(["gcc", "-fopenmp", "-O1", str(tmp_path / "h.c"), "-o", str(exe)], check=True)
    trace, report = tmp_path / "t.json", tmp_path / "r.json"
    run(exe, {"ILAN_TRACE": str(trace), "ILAN_REPORT": str(report), "ILAN_COUNTERS": "os"})
    doc = json.loads(report.read_text())
    tr = json.loads(trace.read_text())
    helps = total(doc, "region_helps")
    assert helps >= 1, "the worker never came back for the late tasks"
    xs = [e for e in tr["traceEvents"] if e["ph"] == "X"]
    assert sum(e["name"] == "parallel" and e["args"].get("help", False) for e in xs) == helps
    for tid in {e["tid"] for e in xs}:
        slices = [e for e in xs if e["tid"] == tid]
        assert nested_ok(slices), "thread %d's slices overlap" % tid
        regions = [e for e in slices if e["name"] == "parallel"]
        for task in (e for e in slices if e["name"] == "task"):
            assert any(r["ts"] - 0.002 <= task["ts"] and
                       task["ts"] + task["dur"] <= r["ts"] + r["dur"] + 0.002 for r in regions)
    late = next(r for r in doc["regions"] if r["symbol"] == "main._omp_fn.0")
    assert late["calls"] == 2   # a return to help is the same call
    assert late["counters"]["tasks_executed"] == 200
    loop = next(r for r in doc["regions"] if r["kind"] == "taskloop")
    # every task ran inside the taskloop's record of the thread that ran it
    assert loop["counters"]["tasks_executed"] == 24 and loop["tasks"] == 24
    if doc["os"]["available"]:
        assert loop["threads"] == 2 and loop["os"]["task_clock_s"] > 0
