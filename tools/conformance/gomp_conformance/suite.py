"""The tests libgomp's c.exp and c++.exp run, each with its language, compile command and judge."""

import re
from dataclasses import dataclass
from pathlib import Path

from .directives import RunPlan, find_directives, interpret
from .selectors import Machine

# c.exp: libgomp.c/*.c and libgomp.c-c++-common/*.c as C.
# c++.exp: libgomp.c++/*.C and libgomp.c-c++-common/*.c as C++ ("-x c++").
# Both search subdirectories too (DejaGnu's find is recursive) and default to -O2.
_SUITES = (
    ("c", "libgomp.c", "*.c"),
    ("c", "libgomp.c-c++-common", "*.c"),
    ("c++", "libgomp.c++", "*.C"),
    ("c++", "libgomp.c-c++-common", "*.c"),
)
DEFAULT_OPTIONS = ("-O2",)

# What libgomp_init adds to every compile besides the include directories.
_ALWAYS_FLAGS = ("-fmessage-length=0", "-fno-diagnostics-show-caret", "-fdiagnostics-color=never")

_LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


@dataclass
class SuiteTest:
    """One test file compiled in one language, with its plan for this machine."""

    path: Path
    relative: str
    language: str
    plan: RunPlan
    uses_taskloop: bool

    @property
    def name(self) -> str:
        return f"{self.relative} [{self.language}]"

    @property
    def sources(self) -> list[Path]:
        return [self.path, *(self.path.parent / extra for extra in self.plan.additional_sources)]


def _mentions_taskloop(source: Path, seen: set[Path] | None = None) -> bool:
    """The source, or a file it #includes "locally", uses taskloop."""
    seen = seen if seen is not None else set()
    if source in seen or not source.is_file():
        return False
    seen.add(source)
    text = source.read_text(errors="replace")
    if "taskloop" in text:
        return True
    return any(_mentions_taskloop(source.parent / name, seen) for name in _LOCAL_INCLUDE.findall(text))


def discover(testsuite: Path, machine_for: dict[str, Machine]) -> list[SuiteTest]:
    """Every test file of the three directories, planned per language."""
    tests: list[SuiteTest] = []
    for language, directory, pattern in _SUITES:
        for path in sorted((testsuite / directory).rglob(pattern)):
            plan = interpret(find_directives(path.read_text(errors="replace")), machine_for[language],
                             DEFAULT_OPTIONS)
            uses_taskloop = any(_mentions_taskloop(source) for source in
                                [path, *(path.parent / extra for extra in plan.additional_sources)])
            tests.append(SuiteTest(path, str(path.relative_to(testsuite)), language, plan, uses_taskloop))
    return tests


def compile_command(test: SuiteTest, testsuite: Path, stub_include: Path, output: Path) -> list[str]:
    """gcc (C) or g++ -x c++ (C++), with the include directories, flags and
    libraries libgomp's .exp files give: -I libgomp/ (libgomp_g.h), -I include/
    (gomp-constants.h), -I for config.h (our stub of the build tree's),
    -fopenmp, the test's flags, its sources, and -lm as DejaGnu links."""
    driver = ["gcc"] if test.language == "c" else ["g++", "-x", "c++"]
    includes = [f"-I{testsuite.parent}", f"-I{testsuite.parent.parent / 'include'}", f"-I{stub_include}"]
    return [
        *driver,
        *includes,
        *_ALWAYS_FLAGS,
        "-fopenmp",
        *test.plan.flags,
        *(str(source) for source in test.sources),
        "-lm",
        "-o",
        str(output),
    ]
