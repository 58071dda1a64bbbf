"""The ilan command's contract: --version, one-line errors for bad arguments, shell-like exit statuses, binding, and the check that a program ran on ilan."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ilan
from ilan import cli
from ilan.paths import REPO, lib_dir

LIBOMP = "/usr/lib/llvm-14/lib/libomp.so"


def ilan_cmd(*args, env=None):
    """Run `python -m ilan ARGS` as a user would: its output and status."""
    return subprocess.run([sys.executable, "-m", "ilan", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def gcc(tmp_path, name, source, *flags):
    """Compile `source` (C) to tmp_path/name with gcc and `flags`."""
    src = tmp_path / (name + ".c")
    src.write_text(source)
    out = tmp_path / name
    subprocess.run(["gcc", str(src), "-o", str(out), *flags], check=True)
    return str(out)


OMP_PROGRAM = """#include <omp.h>
#include <stdio.h>
int main(void) { int n = 0;
#pragma omp parallel
#pragma omp single
  n = omp_get_num_threads();
  printf("threads %d\\n", n); return 0; }
"""


def test_version_is_the_one_in_VERSION_and_the_library_says_the_same(tmp_path):
    version = (REPO / "VERSION").read_text().strip()
    assert ilan.__version__ == version
    p = ilan_cmd("--version")
    assert p.returncode == 0 and p.stdout.strip() == "ilan " + version
    probe = gcc(tmp_path, "version", """#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
int main(void) { const char *(*v)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "ilan_version");
  if (!v || omp_get_max_threads() < 1) return 3; puts(v()); return 0; }
""", "-fopenmp", "-ldl")
    run = subprocess.run([probe], capture_output=True, text=True,
                         env=dict(os.environ, LD_LIBRARY_PATH=str(lib_dir())))
    assert run.returncode == 0 and run.stdout.strip() == version


@pytest.mark.parametrize("args, words", [
    (["bench", "--repeat", "0"], "--repeat: must be at least 1"),
    (["bench", "--threads", "-2"], "--threads: must be at least 1"),
    (["bench", "--variants", "taskloop,nosuch"], "unknown variant 'nosuch'"),
    (["run", "--threads", "many", "--", "true"], "'many' is not a whole number"),
    (["run", "--mode", "fast", "--", "true"], "invalid choice: 'fast'"),
    (["report", "--top", "0", "x.json"], "--top: must be at least 1"),
    (["bench", "--pair", "ilan"], "write two runtimes as A/B"),
    (["nosuch"], "invalid choice: 'nosuch'"),
])
def test_bad_arguments_get_one_line_and_status_2(args, words):
    p = ilan_cmd(*args)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and words in p.stderr, p.stderr
    assert p.stderr.startswith("ilan")


def test_unknown_kernel_or_runtime_is_one_line_and_status_1():
    for args in (["bench", "--kernels", "nosuch"], ["bench", "--runtimes", "gomp"]):
        p = ilan_cmd(*args)
        assert p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_help_starts_fast_without_matplotlib():
    """ilan --help must not pay for matplotlib (about 0.35 s of imports)."""
    code = "import sys, ilan.cli; sys.exit('matplotlib' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_run_help_lists_the_binding_and_every_variable():
    text = ilan_cmd("run", "--help").stdout
    assert "OMP_PROC_BIND=true" in text and "--no-bind" in text
    for name in ("OMP_NUM_THREADS", "GOMP_CPU_AFFINITY", "ILAN_REPORT", "ILAN_LIB", "HWLOC_SYNTHETIC"):
        assert name in text


def test_a_signal_gives_128_plus_its_number(capsys):
    status = cli.main(["run", "--no-check", "--", "sh", "-c", "kill -SEGV $$"])
    assert status == 139
    assert "killed by SIGSEGV" in capsys.readouterr().err


def test_run_binds_unless_told_and_says_so(tmp_path, capsys, monkeypatch):
    out = tmp_path / "env.txt"
    for var in cli.BINDING_VARIABLES:
        monkeypatch.delenv(var, raising=False)

    def bind_seen(*flags):
        cli.main(["run", "--no-check", *flags, "--", "sh", "-c", "env > %s" % out])
        env = dict(l.split("=", 1) for l in out.read_text().splitlines() if "=" in l)
        return env.get("OMP_PROC_BIND"), capsys.readouterr().err

    value, err = bind_seen()
    assert value == "true" and "binding threads" in err and "--no-bind" in err
    value, err = bind_seen("--no-bind")
    assert value == "false" and "binding" not in err
    monkeypatch.setenv("OMP_PLACES", "threads")
    value, err = bind_seen()
    assert value is None and err == ""


def test_run_on_an_openmp_program_is_quiet_and_passes(tmp_path, capsys):
    app = gcc(tmp_path, "omp", OMP_PROGRAM, "-fopenmp")
    assert cli.main(["run", "--threads", "2", "--", app]) == 0
    assert "not used" not in capsys.readouterr().err


def test_run_says_when_ilan_was_not_used(tmp_path, capsys):
    plain = gcc(tmp_path, "plain", "int main(void) { return 0; }\n")
    assert cli.main(["run", "--", plain]) == 1
    err = capsys.readouterr().err
    assert err.count("ilan was not used") == 1 and "no OpenMP runtime" in err

    static = gcc(tmp_path, "static", "int main(void) { return 0; }\n", "-static")
    assert cli.main(["run", "--", static]) == 1
    assert "statically linked" in capsys.readouterr().err

    # The program's own failure status wins over the check's 1.
    assert cli.main(["run", "--", "sh", "-c", "exit 5"]) == 5
    assert "ilan was not used" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists(LIBOMP), reason="LLVM libomp not installed")
def test_run_says_when_a_program_runs_on_llvm_libomp(tmp_path, capsys):
    """A program linked to libomp, as clang -fopenmp links it."""
    obj = tmp_path / "omp.o"
    (tmp_path / "omp.c").write_text(OMP_PROGRAM)
    subprocess.run(["gcc", "-fopenmp", "-c", str(tmp_path / "omp.c"), "-o", str(obj)], check=True)
    app = tmp_path / "on_libomp"
    subprocess.run(["gcc", str(obj), LIBOMP, "-Wl,-rpath," + os.path.dirname(LIBOMP), "-o",
                    str(app)], check=True)
    assert cli.main(["run", "--", str(app)]) == 1
    err = capsys.readouterr().err
    assert "ilan was not used" in err and "libomp" in err and "gcc -fopenmp" in err


def test_the_check_finds_a_library_loaded_by_a_child_process(tmp_path, capsys):
    """ilan run -- sh -c ./app: the shell does not load ilan, its child does."""
    app = gcc(tmp_path, "omp", OMP_PROGRAM, "-fopenmp")
    assert shutil.which("sh")
    assert cli.main(["run", "--", "sh", "-c", app]) == 0
    assert "not used" not in capsys.readouterr().err


def test_the_package_finds_the_library_through_ILAN_LIB(tmp_path, monkeypatch):
    monkeypatch.setenv("ILAN_LIB", str(tmp_path))
    assert lib_dir() == tmp_path
    (tmp_path / "libgomp.so.1").write_text("")
    monkeypatch.setenv("ILAN_LIB", str(tmp_path / "libgomp.so.1"))
    assert lib_dir() == tmp_path
    assert Path(cli.ilan_library()) == tmp_path / "libgomp.so.1"
