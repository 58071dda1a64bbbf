"""The jobs of an `ilan bench` round: thread counts (--threads lists, a kernel's own extra counts) and reference lines (libgomp's static loop, oneTBB for fib)."""

import pytest

from ilan import cli, kernels, runner
from ilan.kernels import Kernel, Reference
from ilan.runtimes import Runtime

GOMP = Runtime("libgomp", "libgomp")
ILAN = Runtime("ilan", "ilan", env={"ILAN_TASKLOOP": "ilan"})
REF = Reference("tbb", "fib_tbb.cpp", ("g++",), ("-ltbb",), ("/nonexistent.h",), "libtbb-dev")
LOOP = Kernel("loop", "a loop kernel")                      # taskloop, static, dynamic
TASKS = Kernel("tasks", "a task kernel", variants=("task",), reference=REF, also_threads=(1,))
OVER = Kernel("over", "an overhead program", variants=("overhead",), kind="overhead")


def names(jobs):
    return [(k.name, v, rt.name, t) for k, v, rt, t in jobs]


def test_one_thread_count_keeps_the_old_plan():
    jobs = names(runner.plan([LOOP, OVER], [GOMP, ILAN], threads=[2]))
    assert jobs == [("loop", "static", "libgomp", 2), ("loop", "taskloop", "libgomp", 2),
                    ("loop", "taskloop", "ilan", 2), ("over", None, "libgomp", 2),
                    ("over", None, "ilan", 2)]


def test_every_kernel_runs_at_every_chosen_count_with_its_reference_lines():
    refs = {"tbb": REF.as_runtime()}
    jobs = names(runner.plan([LOOP, TASKS], [GOMP, ILAN], threads=[1, 4], references=refs))
    assert jobs == [("loop", "static", "libgomp", 1), ("loop", "taskloop", "libgomp", 1),
                    ("loop", "taskloop", "ilan", 1),
                    ("loop", "static", "libgomp", 4), ("loop", "taskloop", "libgomp", 4),
                    ("loop", "taskloop", "ilan", 4),
                    ("tasks", "task", "tbb", 1), ("tasks", "task", "libgomp", 1),
                    ("tasks", "task", "ilan", 1),
                    ("tasks", "task", "tbb", 4), ("tasks", "task", "libgomp", 4),
                    ("tasks", "task", "ilan", 4)]


def test_a_missing_reference_runs_no_line():
    jobs = names(runner.plan([TASKS], [GOMP], threads=[2]))
    assert jobs == [("tasks", "task", "libgomp", 2)]


def test_a_kernel_adds_its_own_counts_only_by_default():
    assert runner.thread_counts(TASKS, [2], chosen=False) == [1, 2]
    assert runner.thread_counts(TASKS, [1], chosen=False) == [1]
    assert runner.thread_counts(TASKS, [2], chosen=True) == [2]
    assert runner.thread_counts(LOOP, [2, 2, 4], chosen=False) == [2, 4]
    jobs = names(runner.plan([LOOP, TASKS], [GOMP], threads=[2], chosen=False))
    assert [(k, t) for k, _, _, t in jobs] == [("loop", 2), ("loop", 2), ("tasks", 1), ("tasks", 2)]


def test_fib_has_the_tbb_reference_and_runs_at_one_thread_too():
    fib = kernels.find(["fib"])[0]
    assert fib.reference is kernels.TBB_FIB and fib.reference.runtime == "tbb"
    assert runner.thread_counts(fib, [2], chosen=False) == [1, 2]
    assert fib.argv("task", "full") == ["--variant", "task", "--n", "30", "--reps", "1"]


def test_a_reference_without_its_library_says_what_to_install():
    why = REF.missing()
    assert why is not None and "/nonexistent.h not found" in why and "libtbb-dev" in why
    gone = Reference("tbb", "nosuch.cpp", ("g++",), (), ("/usr/include/stdio.h",), "x")
    assert "nosuch.cpp is missing" in (gone.missing() or "")
    rt = REF.as_runtime()
    assert rt.check_identity("tbb") is None
    assert "not tbb" in (rt.check_identity("libgomp") or "")


@pytest.mark.parametrize("text, want", [("2", [2]), ("1,2,4,16", [1, 2, 4, 16]),
                                        (" 4 , 1 ", [4, 1]), ("2,2,1", [2, 1])])
def test_thread_lists(text, want):
    assert cli.thread_list(text) == want


@pytest.mark.parametrize("text, words", [("0", "must be at least 1"), ("1,x", "'x' is not a whole"),
                                         (",", "comma list")])
def test_bad_thread_lists(text, words):
    import argparse
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        cli.thread_list(text)
