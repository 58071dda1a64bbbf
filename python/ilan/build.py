"""Compiling the benchmark programs (C with gcc -fopenmp -O2; the C++ reference programs with g++), only when stale."""

import shlex
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from . import IlanError
from .paths import bin_dir, rel

CFLAGS = ["-fopenmp", "-O2", "-Wall"]
LIBS = ["-ldl", "-lm"]


def compile_c(source: Path, deps: Iterable[Path] = (), name: str | None = None,
              compiler: str = "gcc", flags: Iterable[str] = CFLAGS, libs: Iterable[str] = LIBS) -> Path:
    """Build `source` into build/bench/<name> unless the binary is newer than
    the source and its headers; return the binary's path.  compiler, flags
    and libs: gcc -fopenmp -O2 -Wall ... -ldl -lm unless told otherwise (the
    C++ reference programs, bench/reference, use g++ and their library)."""
    source = Path(source)
    binary = bin_dir() / (name or source.stem)
    inputs = [source] + [Path(d) for d in deps]
    if binary.exists() and binary.stat().st_mtime >= max(p.stat().st_mtime for p in inputs):
        return binary
    binary.parent.mkdir(parents=True, exist_ok=True)
    cmd = [compiler] + list(flags) + ["-o", str(binary), str(source)] + list(libs)
    print("building: " + " ".join(shlex.quote(rel(c)) for c in cmd), file=sys.stderr, flush=True)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise IlanError("%s not found: install it (apt-get install %s, or make deps)"
                        % (compiler, compiler)) from None
    if p.returncode != 0:
        raise IlanError("compiling %s failed:\n%s\nfix the source or the compiler setup, then rerun"
                        % (rel(source), p.stderr.strip()))
    return binary
