"""Reading a test's DejaGnu directives and deciding, for one language, how to build, run and judge it."""

import fnmatch
import re
from dataclasses import dataclass, field

from .selectors import (
    Machine,
    SelectorOutcome,
    UndecidableTarget,
    effective_target,
    evaluate_selector,
    evaluate_selector_body,
)
from .tcl import TclSyntaxError, split_list

# One directive per line, as DejaGnu finds them: from "{ dg-NAME" to the last
# " }" on the line. Arguments are optional (e.g. "{ dg-require-alias }").
_DIRECTIVE = re.compile(r"\{[ \t]+(dg-[-a-z0-9_]+)((?:[ \t]+.*)?)[ \t]+\}")

# Directives about the compiler's diagnostics or dumps: they do not change how
# a run test is built or judged, so they are read and ignored.
_COMPILE_TIME_ONLY = frozenset(
    {
        "dg-final", "dg-warning", "dg-error", "dg-message", "dg-bogus", "dg-note",
        "dg-excess-errors", "dg-prune-output", "dg-line", "dg-begin-multiline-output",
        "dg-end-multiline-output", "dg-regexp",
    }
)

_OWN_ARGUMENT_LAYOUT = frozenset({"dg-set-target-env-var", "dg-skip-if", "dg-xfail-if", "dg-xfail-run-if"})

# dg-add-options features that add no flag on x86_64 Linux.
_FEATURES_WITHOUT_FLAGS = frozenset({"__float128", "float128", "ieee", "c99_runtime", "tls"})


@dataclass(frozen=True)
class Directive:
    """One `{ dg-... }` comment: its name, its Tcl words, its line; error
    says why the words could not be read (e.g. a directive split over lines)."""

    name: str
    args: tuple[str, ...]
    line: int
    error: str | None = None


def find_directives(source: str) -> list[Directive]:
    """Every directive in a test's text, in file order."""
    directives: list[Directive] = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = _DIRECTIVE.search(line)
        if not match:
            continue
        try:
            args = tuple(split_list(match.group(2)))
            directives.append(Directive(match.group(1), args, number))
        except TclSyntaxError as error:
            directives.append(Directive(match.group(1), (), number, str(error)))
    return directives


@dataclass
class RunPlan:
    """What the directives say about one test compiled in one language.

    options replaces the default flags (dg-options); additional_options is
    appended after it. output_patterns are Tcl regexps that DejaGnu joins
    into one and searches in the program's combined stdout and stderr.
    skip_reason is set when the test is not to be run here."""

    action: str = "run"
    options: list[str] = field(default_factory=list)
    additional_options: list[str] = field(default_factory=list)
    additional_sources: list[str] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)
    should_fail: bool = False
    output_patterns: list[str] = field(default_factory=list)
    output_expected_to_fail: bool = False
    run_expected_to_fail: bool = False
    timeout_seconds: float | None = None
    skip_reason: str | None = None

    @property
    def flags(self) -> list[str]:
        return self.options + self.additional_options


def _options_selected(words: tuple[str, ...], flags: list[str]) -> bool:
    """dg-skip-if/dg-xfail-if's optional include and exclude option lists:
    every include option (glob) is among the flags and no exclude option is."""
    include = split_list(words[0]) if words else ["*"]
    exclude = split_list(words[1]) if len(words) > 1 else []

    def present(option: str) -> bool:
        return option == "*" or any(fnmatch.fnmatchcase(flag, option) for flag in flags)

    return all(present(option) for option in include) and not any(present(option) for option in exclude)


def interpret(
    directives: list[Directive], machine: Machine, default_options: tuple[str, ...] = ("-O2",)
) -> RunPlan:
    """Apply the directives in file order, as DejaGnu does, for this machine
    and language. Never raises: what cannot be decided becomes a skip_reason."""
    plan = RunPlan(options=list(default_options))
    skip_if: list[Directive] = []
    try:
        for directive in directives:
            if directive.error is not None:
                if directive.name in _COMPILE_TIME_ONLY:
                    continue
                plan.skip_reason = f"line {directive.line}: cannot read {directive.name}: {directive.error}"
                return plan
            _apply(directive, plan, machine, skip_if)
            if plan.skip_reason:
                return plan
        # DejaGnu checks dg-skip-if against the final flags.
        for directive in skip_if:
            selector_words = split_list(directive.args[1]) if len(directive.args) > 1 else []
            if evaluate_selector_body(selector_words, machine) and _options_selected(
                directive.args[2:], plan.flags
            ):
                plan.skip_reason = f"dg-skip-if {' '.join(selector_words)}".strip()
                return plan
    except UndecidableTarget as error:
        plan.skip_reason = f"cannot decide effective target {error}"
    except (TclSyntaxError, IndexError, ValueError) as error:
        plan.skip_reason = f"cannot read directives: {error}"
    return plan


def _apply(directive: Directive, plan: RunPlan, machine: Machine, skip_if: list[Directive]) -> None:
    """One directive's effect on the plan (raises UndecidableTarget)."""
    name, args = directive.name, directive.args
    # Most directives take an optional { target/xfail ... } selector after
    # their one argument; dg-set-target-env-var, dg-skip-if and the xfail-if
    # family have their own argument layout and do not use this.
    selector = SelectorOutcome(applies=True)
    if name not in _OWN_ARGUMENT_LAYOUT:
        selector = evaluate_selector(args[1] if len(args) > 1 else None, machine)
    if name == "dg-do":
        if not selector.applies:
            plan.skip_reason = f"dg-do {args[0]} {args[1].strip()}: not this target"
            return
        plan.action = args[0]
        plan.run_expected_to_fail = selector.expect_failure
        if plan.action != "run":
            plan.skip_reason = f"dg-do {plan.action}: not a run test"
    elif name == "dg-options":
        if selector.applies:
            plan.options = split_list(args[0])
    elif name == "dg-additional-options":
        if selector.applies:
            plan.additional_options += split_list(args[0])
    elif name == "dg-additional-sources":
        if selector.applies:
            plan.additional_sources += split_list(args[0])
    elif name == "dg-set-target-env-var":
        plan.environment[args[0]] = args[1]
    elif name == "dg-shouldfail":
        if selector.applies:
            plan.should_fail = True
    elif name == "dg-output":
        if selector.applies:
            plan.output_patterns.append(args[0])
            plan.output_expected_to_fail |= selector.expect_failure
    elif name == "dg-timeout":
        if selector.applies:
            plan.timeout_seconds = float(args[0])
    elif name == "dg-require-effective-target":
        if selector.applies and not _require(args[0], machine):
            plan.skip_reason = f"requires effective target {args[0]}"
    elif name == "dg-require-alias":
        pass  # ELF on Linux supports aliases
    elif name == "dg-add-options":
        if args[0] not in _FEATURES_WITHOUT_FLAGS:
            plan.skip_reason = f"dg-add-options {args[0]}: flags unknown to this harness"
    elif name == "dg-skip-if":
        skip_if.append(directive)
    elif name in ("dg-xfail-if", "dg-xfail-run-if"):
        if evaluate_selector_body(split_list(args[1]), machine) and _options_selected(args[2:], plan.flags):
            plan.run_expected_to_fail = True
    elif name not in _COMPILE_TIME_ONLY:
        plan.skip_reason = f"line {directive.line}: {name} is unknown to this harness"


def _require(keyword: str, machine: Machine) -> bool:
    """dg-require-effective-target: a keyword, or a negation like '! foo'."""
    words = split_list(keyword)
    if len(words) == 2 and words[0] == "!":
        return not effective_target(words[1], machine)
    return effective_target(keyword.strip(), machine)
