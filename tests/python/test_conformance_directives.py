"""Unit tests of the conformance harness's DejaGnu reading: Tcl lists, directives, plans and verdicts."""

import textwrap

import pytest
from gomp_conformance.directives import RunPlan, find_directives, interpret
from gomp_conformance.execute import judge
from gomp_conformance.selectors import Machine
from gomp_conformance.tcl import TclSyntaxError, are_to_python, split_list

C = Machine(language="c", cpu_flags=frozenset({"sse2", "avx"}))
CXX = Machine(language="c++", cpu_flags=frozenset({"sse2"}))


def plan_of(source: str, machine: Machine = C) -> RunPlan:
    return interpret(find_directives(textwrap.dedent(source)), machine)


def test_split_list_keeps_braces_verbatim_and_substitutes_in_quotes() -> None:
    assert split_list(r'"-O2 -fopenmp" { target c }') == ["-O2 -fopenmp", " target c "]
    assert split_list(r'"foo\[^\n\r]*" {a\nb}') == ["foo[^\n\r]*", r"a\nb"]
    assert split_list("{ { a b } && c }") == [" { a b } && c "]
    assert split_list("bare\\ word x") == ["bare word", "x"]


def test_split_list_rejects_unbalanced_braces() -> None:
    with pytest.raises(TclSyntaxError):
        split_list("{ target { a")


def test_find_directives_reads_one_per_line_with_line_numbers() -> None:
    found = find_directives(
        '/* { dg-do run } */\nint x;\n/* { dg-options "-O0" { target c } } */\n// { dg-require-alias }\n'
    )
    assert [(d.name, d.args, d.line) for d in found] == [
        ("dg-do", ("run",), 1),
        ("dg-options", ("-O0", " target c "), 3),
        ("dg-require-alias", (), 4),
    ]


def test_directive_split_over_lines_is_reported_not_guessed() -> None:
    plan = plan_of("/* { dg-do link { target { { i?86-*-* x86_64-*-* }\n && lp64 } } } */\n")
    assert plan.skip_reason is not None and "cannot read dg-do" in plan.skip_reason


def test_default_is_a_run_test_with_o2() -> None:
    plan = plan_of("int main (void) { return 0; }\n")
    assert plan.action == "run" and plan.flags == ["-O2"] and plan.skip_reason is None


def test_dg_options_replaces_defaults_and_additional_options_append() -> None:
    plan = plan_of(
        """\
        /* { dg-options "-O0 -g" } */
        /* { dg-additional-options "-msse2" { target sse2_runtime } } */
        /* { dg-additional-options "-mavx512f" { target avx512f_runtime } } */
        """
    )
    assert plan.flags == ["-O0", "-g", "-msse2"]


def test_language_selector_c_and_cxx() -> None:
    source = '/* { dg-options "-std=gnu99" { target c } } */\n'
    assert plan_of(source, C).flags == ["-std=gnu99"]
    assert plan_of(source, CXX).flags == ["-O2"]


def test_compile_and_link_tests_are_skipped_as_not_run_tests() -> None:
    assert plan_of("/* { dg-do compile } */\n").skip_reason == "dg-do compile: not a run test"
    assert plan_of('/* { dg-do "link" } */\n').skip_reason == "dg-do link: not a run test"


def test_dg_do_run_with_false_target_is_skipped() -> None:
    plan = plan_of("/* { dg-do run { target offload_device_nonshared_as } } */\n")
    assert plan.skip_reason is not None and "not this target" in plan.skip_reason
    assert plan_of("/* { dg-do run { target *-*-linux* *-*-gnu* } } */\n").skip_reason is None


def test_require_effective_target() -> None:
    assert plan_of("/* { dg-require-effective-target tls_runtime } */\n").skip_reason is None
    assert plan_of("/* { dg-require-effective-target offload_device } */\n").skip_reason == (
        "requires effective target offload_device"
    )
    undecided = plan_of("/* { dg-require-effective-target made_up_feature } */\n").skip_reason
    assert undecided == "cannot decide effective target made_up_feature"


def test_skip_if_all_targets_skips_helper_sources() -> None:
    assert plan_of('/* { dg-skip-if "" { *-*-* } } */\n').skip_reason == "dg-skip-if *-*-*"
    assert plan_of('/* { dg-skip-if "" { *-*-* } { "-O0" } } */\n').skip_reason is None


def test_environment_sources_shouldfail_timeout_and_output() -> None:
    plan = plan_of(
        r"""
        /* { dg-set-target-env-var OMP_PLACES "cores(1)" } */
        /* { dg-additional-sources "aux-a.c aux-b.c" } */
        /* { dg-shouldfail "error directive" } */
        /* { dg-timeout 10 } */
        /* { dg-output "first(\n|\r\n)" } */
        /* { dg-output "second \\\[\[0-9\]+\\\)" } */
        """
    )
    assert plan.environment == {"OMP_PLACES": "cores(1)"}
    assert plan.additional_sources == ["aux-a.c", "aux-b.c"]
    assert plan.should_fail and plan.timeout_seconds == 10
    assert plan.output_patterns == ["first(\n|\r\n)", r"second \[[0-9]+\)"]


def test_xfail_selectors_mark_expected_failures_without_skipping() -> None:
    plan = plan_of('/* { dg-output "x" { xfail *-*-linux* } } */\n/* { dg-xfail-run-if "t" { offload_device } } */\n')
    assert plan.output_expected_to_fail and not plan.run_expected_to_fail and plan.skip_reason is None


def test_diagnostic_directives_are_ignored_and_unknown_ones_skip() -> None:
    assert plan_of('int x; /* { dg-warning "unused" } */\n/* { dg-final { scan-tree-dump "x" "omp" } } */\n') \
        .skip_reason is None
    reason = plan_of('/* { dg-frobnicate "x" } */\n').skip_reason
    assert reason == "line 1: dg-frobnicate is unknown to this harness"


def test_judge_exit_status_signal_timeout_and_shouldfail() -> None:
    plan = plan_of("")
    assert judge(plan, 0, "", 60) == (True, "ok")
    assert judge(plan, 3, "", 60) == (False, "exit code 3")
    assert judge(plan, -6, "", 60) == (False, "killed by SIGABRT")
    assert judge(plan, None, "", 60) == (False, "timeout after 60 s")
    failing = plan_of('/* { dg-shouldfail "" } */\n')
    assert judge(failing, 1, "", 60)[0]
    assert not judge(failing, 0, "", 60)[0]
    assert not judge(failing, None, "", 60)[0]


def test_judge_joins_output_patterns_and_searches_across_lines() -> None:
    plan = plan_of('/* { dg-output "a(\\n|\\r\\n)" } */\n/* { dg-output "b.*c" } */\n')
    assert judge(plan, 0, "noise\na\nb\nxc\n", 60) == (True, "ok")
    assert judge(plan, 0, "a\nc b\n", 60) == (False, "output does not match dg-output")


def test_are_word_boundaries_and_posix_classes() -> None:
    assert are_to_python(r"\mfoo\M [[:digit:]]+") == r"\bfoo\b [0-9]+"
