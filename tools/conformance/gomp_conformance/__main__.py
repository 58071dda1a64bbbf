"""`python -m gomp_conformance`: build GCC's libgomp tests once, run them on libgomp and ilan, list what ilan breaks."""

import argparse
import collections
import fnmatch
import json
import os
import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .build import Built, build, compiler_identity
from .execute import Outcome, Runtime, run
from .fetch import extract_testsuite, log
from .selectors import Machine
from .suite import SuiteTest, compile_command, discover

# ilan's taskloop modes besides its default: taskloop tests run in each.
EXTRA_TASKLOOP_MODES = ("numa", "ws")
STUB_CONFIG_H = "/* Stub of libgomp's build-tree config.h for affinity-1. */\n#define HAVE_PTHREAD_AFFINITY_NP 1\n"


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    repo = Path(__file__).resolve().parents[3]
    parser = argparse.ArgumentParser(
        prog="make conformance",
        description="Run GCC 12's libgomp testsuite (C and C++ run tests) on libgomp and on ilan "
        "from the same binaries; report each test that passes on libgomp but not on ilan.",
    )
    parser.add_argument("--runtime-lib", type=Path, default=repo / "build" / "lib",
                        help="directory holding ilan's libgomp.so.1 (default: build/lib)")
    parser.add_argument("--cache", type=Path, default=repo / "build" / "conformance",
                        help="source download, binaries and logs (default: build/conformance)")
    parser.add_argument("--testsuite", type=Path,
                        help="an already extracted libgomp/testsuite directory (skips the download)")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="parallel compiles and runs (default: 2)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per run unless the test sets dg-timeout (default: 60)")
    parser.add_argument("--only", action="append", default=[], metavar="PATTERN",
                        help="only tests whose name contains PATTERN or matches it as a glob (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the tests and their plans; build and run nothing")
    parser.add_argument("--verbose", "-v", action="store_true", help="also print every skip and n/a")
    return parser.parse_args(argv)


def machine_for(language: str) -> Machine:
    flags: frozenset[str] = frozenset()
    if os.path.exists("/proc/cpuinfo"):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                flags = frozenset(line.split(":", 1)[1].split())
                break
    return Machine(
        triplet=f"{platform.machine()}-pc-linux-gnu",
        language=language,
        cpu_flags=flags,
        run_expensive=bool(os.environ.get("GCC_TEST_RUN_EXPENSIVE")),
    )


def selected(test: SuiteTest, patterns: list[str]) -> bool:
    return not patterns or any(p in test.name or fnmatch.fnmatchcase(test.name, p) for p in patterns)


def runtimes_for(test: SuiteTest, ilan_lib: Path) -> list[Runtime]:
    ilan = [Runtime("ilan", ilan_lib)]
    if test.uses_taskloop:
        ilan += [Runtime("ilan", ilan_lib, mode) for mode in EXTRA_TASKLOOP_MODES]
    return ilan


@dataclass
class Results:
    """Everything one run of the harness found, in the order it was found.

    built: the builds with a binary; on_libgomp: their outcomes, in order;
    comparable: each (build, ilan runtime) whose build passed on libgomp;
    on_ilan: their outcomes, in order."""

    tests: list[SuiteTest]
    skipped: list[SuiteTest]
    builds: list[Built]
    built: list[Built]
    on_libgomp: list[Outcome]
    comparable: list[tuple[Built, Runtime]]
    on_ilan: list[Outcome]


def run_built(item: Built, runtime: Runtime, timeout_seconds: float) -> Outcome:
    assert item.binary is not None, "only built tests are run"
    return run(item.binary, item.test.plan, runtime, timeout_seconds)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    cache: Path = args.cache.resolve()
    ilan_lib: Path = args.runtime_lib.resolve()
    testsuite = args.testsuite.resolve() if args.testsuite else extract_testsuite(cache)
    tests = [t for t in discover(testsuite, {lang: machine_for(lang) for lang in ("c", "c++")})
             if selected(t, args.only)]
    runnable = [t for t in tests if t.plan.skip_reason is None]
    skipped = [t for t in tests if t.plan.skip_reason is not None]
    stub_include = cache / "include"
    stub_include.mkdir(parents=True, exist_ok=True)
    (stub_include / "config.h").write_text(STUB_CONFIG_H)

    if args.list:
        for test in tests:
            if test.plan.skip_reason:
                print(f"SKIP {test.name}: {test.plan.skip_reason}")
                continue
            modes = " ".join(r.label for r in runtimes_for(test, ilan_lib))
            command = " ".join(compile_command(test, testsuite, stub_include, Path(test.path.stem + ".exe")))
            print(f"RUN  {test.name}: on libgomp, {modes}; env {test.plan.environment or '{}'}\n     {command}")
        print(f"{len(runnable)} to run, {len(skipped)} skipped", file=sys.stderr)
        return 0

    if not (ilan_lib / "libgomp.so.1").exists():
        print(f"conformance: no libgomp.so.1 in {ilan_lib} (build ilan with `make`, or pass --runtime-lib)",
              file=sys.stderr)
        return 2

    started = time.monotonic()
    compiler = compiler_identity()
    log(f"building {len(runnable)} tests ({args.jobs} jobs; cached in {cache / 'bin'})")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        builds: list[Built] = list(pool.map(lambda t: build(t, testsuite, stub_include, cache, compiler), runnable))
    built = [b for b in builds if b.binary is not None]
    compiled_now = sum(1 for b in builds if not b.cached)
    log(f"{len(built)} built ({compiled_now} compiled now, {len(builds) - len(built)} compile errors) "
        f"in {time.monotonic() - started:.0f} s")

    libgomp = Runtime("libgomp")
    log(f"running {len(built)} binaries on libgomp")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        on_libgomp: list[Outcome] = list(
            pool.map(lambda b: run_built(b, libgomp, args.timeout), built))

    comparable = [(b, r) for b, outcome in zip(built, on_libgomp, strict=True) if outcome.passed
                  for r in runtimes_for(b.test, ilan_lib)]
    log(f"running {len(comparable)} runs on ilan ({ilan_lib})")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        on_ilan: list[Outcome] = list(
            pool.map(lambda pair: run_built(pair[0], pair[1], args.timeout), comparable))

    results = Results(tests, skipped, builds, built, on_libgomp, comparable, on_ilan)
    write_logs(cache, results)
    return report(args, results, time.monotonic() - started)


def write_logs(cache: Path, results: Results) -> None:
    """results.json (one record per test and runtime) and results.txt beside it."""
    tests, builds, built = results.tests, results.builds, results.built
    on_libgomp, comparable, on_ilan = results.on_libgomp, results.comparable, results.on_ilan
    records: list[dict[str, object]] = []
    for test in tests:
        if test.plan.skip_reason:
            records.append({"test": test.name, "runtime": None, "status": "skipped", "reason": test.plan.skip_reason})
    for item in builds:
        if item.binary is None:
            records.append({"test": item.test.name, "runtime": None, "status": "compile-error",
                            "reason": item.log.strip().splitlines()[-1] if item.log.strip() else "compile failed"})
    for item, outcome in zip(built, on_libgomp, strict=True):
        records.append(_run_record(item.test, Runtime("libgomp"), outcome))
    for (item, runtime), outcome in zip(comparable, on_ilan, strict=True):
        records.append(_run_record(item.test, runtime, outcome))
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "results.json").write_text(json.dumps(records, indent=1) + "\n")
    lines = [f"{r['status']:<13} {r['test']} {r['runtime'] or ''} {r['reason']}".rstrip() for r in records]
    (cache / "results.txt").write_text("\n".join(lines) + "\n")


def _run_record(test: SuiteTest, runtime: Runtime, outcome: Outcome) -> dict[str, object]:
    record: dict[str, object] = {
        "test": test.name, "runtime": runtime.label, "status": "pass" if outcome.passed else "fail",
        "reason": outcome.reason, "seconds": round(outcome.seconds, 3),
    }
    if not outcome.passed:
        record["output_tail"] = outcome.output_tail
    return record


def report(args: argparse.Namespace, results: Results, seconds: float) -> int:
    """One line per ilan failure, the counts, and the closing 'N passed, N failed, N skipped'."""
    tests, skipped, builds, built = results.tests, results.skipped, results.builds, results.built
    on_libgomp, comparable, on_ilan = results.on_libgomp, results.comparable, results.on_ilan
    failures = [(item, runtime, outcome) for (item, runtime), outcome in zip(comparable, on_ilan, strict=True)
                if not outcome.passed]
    for item, runtime, outcome in failures:
        print(f"FAIL {item.test.name} on {runtime.label}: {outcome.reason}")
    not_applicable = [(b, o) for b, o in zip(built, on_libgomp, strict=True) if not o.passed]
    compile_errors = [b for b in builds if b.binary is None]
    if args.verbose:
        for item, outcome in not_applicable:
            print(f"N/A  {item.test.name}: fails on libgomp ({outcome.reason})")
        for item in compile_errors:
            print(f"N/A  {item.test.name}: compile error")
    reasons = collections.Counter(_group(t.plan.skip_reason or "") for t in skipped)
    print(f"conformance: {len(tests)} test compiles planned, {len(skipped)} skipped by their directives; "
          f"{len(built)} built, {len(compile_errors)} compile errors")
    print(f"conformance: libgomp passed {len(built) - len(not_applicable)} of {len(built)} "
          f"({len(not_applicable)} n/a: fail on libgomp); ilan passed "
          f"{len(comparable) - len(failures)} of {len(comparable)} runs "
          f"({len(built) - len(not_applicable)} binaries, taskloop tests also in ILAN_TASKLOOP="
          f"{' and '.join(EXTRA_TASKLOOP_MODES)})")
    for reason, count in reasons.most_common():
        print(f"conformance: skipped {count}: {reason}")
    print(f"conformance: log in {args.cache.resolve() / 'results.json'}, {seconds:.0f} s")
    not_judged = len(skipped) + len(not_applicable) + len(compile_errors)
    print(f"{len(comparable) - len(failures)} passed, {len(failures)} failed, {not_judged} skipped")
    return 1 if failures else 0


def _group(reason: str) -> str:
    """Skip reasons without their line numbers, so alike ones count together."""
    return reason.split(": ", 1)[1] if reason.startswith("line ") else reason


if __name__ == "__main__":
    sys.exit(main())
