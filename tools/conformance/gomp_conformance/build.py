"""Compiling each test once, cached by a hash of its command, sources and compiler."""

import hashlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .suite import SuiteTest, compile_command

COMPILE_TIMEOUT_SECONDS = 600  # the -flto tests are slow on a busy 2-core machine


@dataclass(frozen=True)
class Built:
    """A test's binary (None when the compile failed) and the compiler's message."""

    test: SuiteTest
    binary: Path | None
    log: str
    cached: bool


def compiler_identity() -> str:
    """Changes whenever the installed gcc/g++ does, so old binaries are not reused."""
    parts = []
    for driver in ("gcc", "g++"):
        result = subprocess.run([driver, "--version"], check=False, capture_output=True, text=True)
        parts.append(result.stdout.splitlines()[0] if result.stdout else driver)
    return "\n".join(parts)


def _cache_key(command: list[str], test: SuiteTest, compiler: str) -> str:
    digest = hashlib.sha256()
    digest.update(compiler.encode())
    digest.update("\0".join(command).encode())
    for source in test.sources:
        digest.update(source.read_bytes() if source.is_file() else b"<missing>")
    return digest.hexdigest()[:24]


def build(test: SuiteTest, testsuite: Path, stub_include: Path, cache: Path, compiler: str) -> Built:
    """The test's binary from the cache, or compiled now and cached (failures too)."""
    # The key covers the command with a placeholder output path: the real one
    # contains the key itself.
    key = _cache_key(compile_command(test, testsuite, stub_include, Path("OUT")), test, compiler)
    directory = cache / "bin" / key
    binary = directory / (test.path.stem + ".exe")
    record = directory / "build.json"
    if record.exists():
        saved = json.loads(record.read_text())
        return Built(test, binary if saved["ok"] else None, saved["log"], cached=True)
    directory.mkdir(parents=True, exist_ok=True)
    command = compile_command(test, testsuite, stub_include, binary)
    try:
        result = subprocess.run(command, check=False, capture_output=True, text=True,
                                timeout=COMPILE_TIMEOUT_SECONDS, cwd=directory)
        ok, log = result.returncode == 0 and binary.exists(), result.stdout + result.stderr
    except subprocess.TimeoutExpired:
        ok, log = False, f"compile timed out after {COMPILE_TIMEOUT_SECONDS} s"
    record.write_text(json.dumps({"ok": ok, "log": log[-4000:], "command": command}))
    return Built(test, binary if ok else None, log, cached=False)
