"""`ilan noise`: seed 004's thread configurations worked out from a machine's layout, a real run's table, results and chart, and one-line errors for a missing program, bad options and unwritable outputs."""

import json
import subprocess
import sys

import pytest

from ilan import cli, noise

PROGRAM = """#include <stdio.h>
static volatile double sink;
int main(void)
{
    for (int r = 0; r < 3; r++) {
#pragma omp parallel
        {
            double x = 0;
            for (long k = 0; k < 2000000; k++)
                x += k * 0.5;
            sink = x;
        }
    }
    puts("ok");
    return 0;
}
"""


def test_four_cores_in_two_groups_give_the_four_configurations_of_seed_004():
    layout = noise.Layout([[0], [1], [2], [3]], [[0, 1], [2, 3]], "node")
    plan = noise.configurations(layout)
    assert [c.name for c in plan.configs] == ["all cores", "one core idle",
                                              "one idle core per group", "ILAN_RESERVE_CORES=1"]
    assert [c.threads for c in plan.configs] == [4, 3, 2, None]
    assert plan.configs[0].env == {"OMP_NUM_THREADS": "4", "OMP_PLACES": "{0},{1},{2},{3}",
                                   "OMP_PROC_BIND": "true"}
    assert plan.configs[1].env["OMP_PLACES"] == "{0},{1},{2}"
    assert plan.configs[2].env["OMP_PLACES"] == "{0},{2}"       # each group's last core idle
    assert plan.configs[3].env == {"ILAN_RESERVE_CORES": "1"}  # the runtime picks the threads
    assert plan.skipped == []


def test_configurations_that_leave_no_thread_or_repeat_another_are_left_out_with_the_reason():
    two = noise.configurations(noise.Layout([[0], [1]], [[0], [1]], "core"))
    assert [c.name for c in two.configs] == ["all cores", "one core idle", "ILAN_RESERVE_CORES=1"]
    assert [(s.name, s.why) for s in two.skipped] == [
        ("one idle core per group", "every locality group (core) is one core here")]
    one_node = noise.configurations(noise.Layout([[0, 1], [2, 3]], [[0, 1]], "node"))
    assert [s.name for s in one_node.skipped] == ["one idle core per group"]
    assert "the same cores as 'one core idle'" in one_node.skipped[0].why
    single = noise.configurations(noise.Layout([[0]], [[0]], "core"))
    assert [c.name for c in single.configs] == ["all cores"]
    assert {s.name for s in single.skipped} == {"one core idle", "one idle core per group",
                                                 "ILAN_RESERVE_CORES=1"}


def test_several_programs_are_separated_by_double_dashes():
    assert cli.split_programs(["--", "./a", "-x", "--", "./b", "1"]) == [["./a", "-x"], ["./b", "1"]]
    assert cli.split_programs(["--"]) == []


def test_a_run_prints_the_table_and_writes_the_results_and_the_chart(tmp_path, capsys):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM)
    exe = tmp_path / "p"
    subprocess.run(["gcc", "-fopenmp", "-O1", str(src), "-o", str(exe)], check=True)
    out = tmp_path / "n"
    assert cli.main(["noise", "--rounds", "2", "--noise", "floating", "--out", str(out),
                     "--", str(exe)]) == 0
    text = capsys.readouterr().out
    head = text.splitlines()[0].split()
    assert head[:4] == ["program", "configuration", "threads", "load"]
    assert "involuntary" in head and "voluntary" in head and "migrations" in head
    doc = json.loads(out.with_suffix(".json").read_text())
    names = [c["name"] for c in doc["configurations"]]
    assert "all cores" in names and "ILAN_RESERVE_CORES=1" in names
    assert len(doc["runs"]) == 2 * len(names) * 2          # rounds x configurations x loads
    assert len(doc["summary"]) == len(names) * 2
    for r in doc["runs"]:
        assert r["time_s"] > 0 and r["threads"] >= 1
        if r["os_reason"] is None:                          # OS counters read: whole counts
            assert all(isinstance(r[k], int) and r[k] >= 0 for k in noise.COUNTS)
            assert r["descheduled_s"] >= 0
    all_cores = next(c for c in doc["configurations"] if c["name"] == "all cores")
    quiet = [r for r in doc["runs"] if r["config"] == "all cores"]
    assert all(r["threads"] == int(all_cores["env"]["OMP_NUM_THREADS"]) for r in quiet)
    assert doc["noise"] == "1 CPU hog floating" and doc["command"].startswith("ilan noise ")
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"
    assert "chart:" in text


def one_line_error(*args, after_progress=False):
    """The status and the error line of `ilan noise ARGS`; the error is the
    only line on stderr, or (after_progress) the last after the progress."""
    p = subprocess.run([sys.executable, "-m", "ilan", "noise", *args], capture_output=True,
                       text=True, timeout=60)
    lines = p.stderr.splitlines()
    assert "Traceback" not in p.stderr
    assert lines and (after_progress or len(lines) == 1), p.stderr
    assert lines[-1].startswith(("ilan: error: ", "ilan noise: error: "))
    return p.returncode, lines[-1]


@pytest.mark.parametrize("args, status, message", [
    ([], 1, "no program given"),
    (["--", "./no-such-program"], 1, "cannot run ./no-such-program: no such program"),
    (["--rounds", "0", "--", "/bin/true"], 2, "must be at least 1"),
    (["--noise", "sideways", "--", "/bin/true"], 2, "invalid choice"),
    (["--noise-cpu", "9999", "--", "/bin/true"], 1, "--noise-cpu 9999 is not a CPU"),
    (["--png", "/no/such/folder/x.png", "--", "/bin/true"], 1, "cannot write the chart"),
    (["--out", "/no/such/folder/n", "--", "/bin/true"], 1, "cannot write the results file"),
])
def test_bad_invocations_say_so_in_one_line(args, status, message):
    code, line = one_line_error(*args)
    assert code == status and message in line


def test_a_program_that_is_not_executable_is_refused_before_any_run(tmp_path):
    f = tmp_path / "script"
    f.write_text("#!/bin/sh\n")
    code, line = one_line_error("--out", str(tmp_path / "n"), "--", str(f))
    assert code == 1 and "not executable" in line
    assert not (tmp_path / "n.json").exists()


def test_a_failing_program_stops_the_experiment_with_its_status(tmp_path):
    code, line = one_line_error("--out", str(tmp_path / "n"), "--", "/bin/false",
                                after_progress=True)
    assert code == 1 and "/bin/false failed (status 1)" in line
