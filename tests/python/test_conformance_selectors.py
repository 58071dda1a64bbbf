"""Unit tests of the conformance harness's target selectors and effective targets for x86_64 Linux."""

import pytest
from gomp_conformance.selectors import (
    Machine,
    UndecidableTarget,
    effective_target,
    evaluate_selector,
    evaluate_selector_body,
)
from gomp_conformance.tcl import split_list

C = Machine(language="c", cpu_flags=frozenset({"sse2"}))
CXX = Machine(language="c++", cpu_flags=frozenset({"sse2", "avx"}))


def holds(selector: str, machine: Machine = C) -> bool:
    return evaluate_selector(selector, machine).applies


@pytest.mark.parametrize(
    "selector, expected",
    [
        ("target x86_64-*-*", True),
        ("target *-*-linux*", True),  # needs the vendor field gcc -dumpmachine omits
        ("target i?86-*-* x86_64-*-*", True),
        ("target alpha*-*-*", False),
        ("target *-*-darwin*", False),
        ("target lp64", True),
        ("target ilp32", False),
        ("target { ! run_expensive_tests }", True),
        ("target run_expensive_tests", False),
        ("target { offload_target_nvptx || offload_target_amdgcn }", False),
        ("target { { i?86-*-* x86_64-*-* } && lp64 }", True),
        ("target { { i?86-*-* x86_64-*-* } && ! lp64 }", False),
        ("target openacc_nvidia_accel_selected", False),
        ("target offload_device_nonshared_as", False),
        ("target c", True),
        ("target c++", False),
    ],
)
def test_target_selectors(selector: str, expected: bool) -> None:
    assert holds(selector) is expected


def test_missing_selector_applies_and_xfail_marks_expected_failure() -> None:
    assert evaluate_selector(None, C).applies
    outcome = evaluate_selector("xfail *-*-linux*", C)
    assert outcome.applies and outcome.expect_failure
    assert not evaluate_selector("xfail nvptx", C).expect_failure


def test_runtime_keywords_follow_the_cpu_flags() -> None:
    assert effective_target("sse2_runtime", C)
    assert not effective_target("avx_runtime", C)
    assert effective_target("avx_runtime", CXX)


def test_cxx_standard_keywords() -> None:
    assert effective_target("c++11", CXX) and effective_target("c++17", CXX)
    assert not effective_target("c++20", CXX)
    assert effective_target("c++17_only", CXX) and not effective_target("c++14_only", CXX)
    assert effective_target("c++98", CXX)
    assert not effective_target("c++11", C)


def test_unknown_keyword_is_undecidable_not_false() -> None:
    with pytest.raises(UndecidableTarget):
        evaluate_selector_body(split_list("some_new_keyword"), C)


def test_operator_precedence_not_and_or() -> None:
    assert evaluate_selector_body(split_list("ilp32 || lp64 && ! nvptx"), C)
    assert not evaluate_selector_body(split_list("! lp64 || ilp32"), C)
