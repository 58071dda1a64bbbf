"""DejaGnu target selectors ({ target ... }, { xfail ... }) and effective-target keywords for x86_64 Linux."""

import fnmatch
import re
from dataclasses import dataclass, field

from .tcl import TclSyntaxError, split_list

_OPERATORS = ("!", "&&", "||")


class UndecidableTarget(ValueError):
    """A keyword this harness cannot decide: the test is skipped, naming it."""


@dataclass(frozen=True)
class Machine:
    """What the effective-target keywords are decided from.

    triplet: config.guess's spelling (x86_64-pc-linux-gnu): the tests' globs
    such as *-*-linux* need the vendor field that `gcc -dumpmachine` omits.
    language: "c" or "c++", the language this compile of the test is in.
    cxx_standard: the C++ standard year in effect (gcc 12 defaults to 17).
    cpu_flags: /proc/cpuinfo's flags, for the *_runtime keywords.
    run_expensive: GCC_TEST_RUN_EXPENSIVE was set, as in GCC's testsuite."""

    triplet: str = "x86_64-pc-linux-gnu"
    language: str = "c"
    cxx_standard: int = 17
    cpu_flags: frozenset[str] = field(default_factory=frozenset)
    run_expensive: bool = False


# Keywords true on x86_64 Linux with Debian's gcc 12 whatever the language.
_ALWAYS_TRUE = frozenset(
    {
        "lp64", "int32plus", "size32plus", "ptr32plus", "int128", "lto",
        "tls", "tls_native", "tls_runtime", "pthread", "fpic", "pie", "shared",
        "sync_int_long", "sync_long_long", "sync_char_short", "cas_char", "cas_int",
        "alias", "weak", "large_long_double", "__float128", "float128",
        "sse2_runtime", "vect_simd_clones", "fopenmp", "fgraphite", "init_priority",
        "nonpic", "stdint_types", "inttypes_types", "mmap", "ucontext",
        "c99_runtime", "wchar", "section_anchors_not",
    }
)

# Keywords false here: 32-bit ABIs, other CPUs, and everything that needs an
# offload device or OpenACC (this machine has none; the host fallback is not
# an offload device in GCC's sense).
_ALWAYS_FALSE = frozenset(
    {
        "ilp32", "ia32", "x32", "llp64", "nvptx", "amdgcn", "gcn", "hsa",
        "offload_device", "offload_device_nonshared_as", "offload_device_shared_as",
        "offload_device_nvptx", "offload_device_gcn", "offload_device_intel_mic",
        "offload_device_any_intel_mic", "offload_target_nvptx", "offload_target_amdgcn",
        "offload_target_intelmic", "offload_target_any", "offload_gcn_with_sram_ecc",
        "openacc_host_selected", "openacc_nvidia_accel_selected",
        "openacc_radeon_accel_selected", "openacc_nvidia_accel_configured",
        "openacc_cuda", "openacc_cublas", "openacc_cudart", "lto_incremental",
        "section_anchors", "simulator",
    }
)

_CXX_STANDARD_KEYWORD = re.compile(r"c\+\+(\d\d|[12][0-9a-z])(_only|_down)?$")
_CXX_YEAR_ALIASES = {"0x": 11, "1y": 14, "1z": 17, "2a": 20, "2b": 23}


def _cxx_year(spelled: str) -> int:
    """'98' -> 1998-ish ordering value; '11' -> 11; '2a' -> 20."""
    if spelled in _CXX_YEAR_ALIASES:
        return _CXX_YEAR_ALIASES[spelled]
    year = int(spelled)
    return year - 100 if year >= 98 else year  # 98 sorts before 03 and 11


def effective_target(keyword: str, machine: Machine) -> bool:
    """Decide one effective-target keyword, or raise UndecidableTarget."""
    if keyword in ("c", "c++"):
        return machine.language == keyword
    if keyword in _ALWAYS_TRUE:
        return True
    if keyword in _ALWAYS_FALSE or keyword.startswith(("openacc_", "offload_")):
        return False
    if keyword in ("avx_runtime", "avx2_runtime", "avx512f_runtime"):
        return keyword.removesuffix("_runtime") in machine.cpu_flags
    if keyword == "run_expensive_tests":
        return machine.run_expensive
    standard = _CXX_STANDARD_KEYWORD.match(keyword)
    if standard:
        if machine.language != "c++":
            return False
        wanted = _cxx_year(standard.group(1))
        have = _cxx_year(str(machine.cxx_standard))
        suffix = standard.group(2)
        if suffix == "_only":
            return have == wanted
        if suffix == "_down":
            return have <= wanted
        return have >= wanted
    raise UndecidableTarget(keyword)


def _looks_like_triplet(word: str) -> bool:
    # GCC treats a selector word as a target-triplet glob unless it is an
    # effective-target keyword; keywords never contain '-', triplets always do.
    return "-" in word


def _is_list_word(word: str) -> bool:
    """A word that is itself a list (it came from a {braced} group)."""
    try:
        elements = split_list(word)
    except TclSyntaxError:
        return False
    return len(elements) != 1 or elements[0] != word.strip()


def _evaluate_operand(word: str, machine: Machine) -> bool:
    word = word.strip()
    if _is_list_word(word):
        return evaluate_selector_body(split_list(word), machine)
    if _looks_like_triplet(word):
        return fnmatch.fnmatchcase(machine.triplet, word)
    return effective_target(word, machine)


def _evaluate_expression(words: list[str], machine: Machine) -> bool:
    """Operands joined by ! && || (precedence ! > && > ||)."""
    position = 0

    def parse_or() -> bool:
        nonlocal position
        value = parse_and()
        while position < len(words) and words[position] == "||":
            position += 1
            rhs = parse_and()
            value = value or rhs
        return value

    def parse_and() -> bool:
        nonlocal position
        value = parse_not()
        while position < len(words) and words[position] == "&&":
            position += 1
            rhs = parse_not()
            value = value and rhs
        return value

    def parse_not() -> bool:
        nonlocal position
        if position >= len(words):
            raise UndecidableTarget("malformed selector expression " + " ".join(words))
        if words[position] == "!":
            position += 1
            return not parse_not()
        operand = words[position]
        position += 1
        return _evaluate_operand(operand, machine)

    value = parse_or()
    if position != len(words):
        raise UndecidableTarget("malformed selector expression " + " ".join(words))
    return value


def evaluate_selector_body(words: list[str], machine: Machine) -> bool:
    """The words after 'target'/'xfail': an expression if they contain an
    operator, otherwise a list that is true when any element is."""
    if any(word in _OPERATORS for word in words):
        return _evaluate_expression(words, machine)
    return any(_evaluate_operand(word, machine) for word in words)


@dataclass(frozen=True)
class SelectorOutcome:
    """applies: the directive takes effect; expect_failure: it was an xfail selector that held."""

    applies: bool
    expect_failure: bool = False


def evaluate_selector(selector: str | None, machine: Machine) -> SelectorOutcome:
    """A directive's optional selector argument: absent -> applies;
    { target X } -> applies when X holds; { xfail X } -> applies, and expect a
    failure when X holds."""
    if selector is None or not selector.strip():
        return SelectorOutcome(applies=True)
    words = split_list(selector)
    kind, body = words[0], words[1:]
    if kind == "target":
        return SelectorOutcome(applies=evaluate_selector_body(body, machine))
    if kind == "xfail":
        return SelectorOutcome(applies=True, expect_failure=evaluate_selector_body(body, machine))
    raise UndecidableTarget(f"unknown selector kind {kind!r}")
