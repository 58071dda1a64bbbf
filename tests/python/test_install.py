"""make install as a user meets it: the private lib/ilan layout, a pkg-config build and a CMake find_package(ilan) build that run on ilan, and the installed ilan command away from the source tree."""

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from ilan.paths import REPO, build_dir

VERSION = (REPO / "VERSION").read_text().strip()

# A user program: it calls ilan's API (ilan.h) and proves at run time which
# runtime it got, as tests/omp/check.h does, by looking up ilan_version.
APP = textwrap.dedent("""\
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <omp.h>
    #include <stdio.h>
    #include <ilan.h>
    int main(void)
    {
        const char *(*version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "ilan_version");
        int n = 0;
    #pragma omp parallel
    #pragma omp single
        n = omp_get_num_threads();
        printf("runtime %s, %d threads, %d NUMA node(s)\\n", version ? version() : "not-ilan", n,
               ilan_get_num_numa_nodes());
        return version ? 0 : 3;
    }
    """)

CONSUMER_CMAKE = textwrap.dedent("""\
    cmake_minimum_required(VERSION 3.20)
    project(consumer C)
    find_package(ilan %s REQUIRED)
    add_executable(app app.c)
    target_link_libraries(app PRIVATE ilan::ilan ${CMAKE_DL_LIBS})
    install(TARGETS app)
    """ % VERSION)


def clean_env(tmp: Path) -> dict[str, str]:
    """The environment of a user who has nothing of the source tree set."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "ILAN_BUILD_DIR", "ILAN_LIB", "LD_LIBRARY_PATH", "LD_PRELOAD")
           and not k.startswith(("OMP_", "ILAN_", "GOMP_"))}
    env["HOME"] = str(tmp / "home")
    env["XDG_CACHE_HOME"] = str(tmp / "cache")
    env["OMP_NUM_THREADS"] = "2"
    return env


def run(cmd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def assert_on_ilan(binary: Path, prefix: Path, env: dict[str, str]) -> None:
    """The program runs on the installed ilan with no LD_LIBRARY_PATH: the
    loader maps libgomp.so.1 from PREFIX/lib/ilan."""
    p = run([str(binary)], env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("runtime %s, 2 threads" % VERSION), p.stdout
    ldd = run(["ldd", str(binary)], env=env).stdout
    line = next(l for l in ldd.splitlines() if "libgomp.so.1" in l)
    assert str(prefix / "lib" / "ilan" / "libgomp.so.1") in line, ldd


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> Path:
    """ilan installed from the build folder into a fresh prefix."""
    if not (build_dir() / "lib" / "libgomp.so.1").exists():
        pytest.skip("no build in %s: run make first" % build_dir())
    where = tmp_path_factory.mktemp("prefix")
    p = run(["cmake", "--install", str(build_dir()), "--prefix", str(where)])
    assert p.returncode == 0, p.stdout + p.stderr
    return where


def test_the_runtime_is_in_a_private_folder(prefix):
    lib = prefix / "lib"
    assert (lib / "ilan" / "libgomp.so.1").is_file()
    assert os.readlink(lib / "ilan" / "libilan.so") == "libgomp.so.1"
    # Nothing the loader's default search (after ldconfig) would pick up.
    assert not list(lib.glob("libgomp*")) and not list(lib.glob("libilan*"))
    for path in ("include/ilan.h", "lib/pkgconfig/ilan.pc", "lib/cmake/ilan/ilanConfig.cmake",
                 "lib/cmake/ilan/ilanConfigVersion.cmake", "bin/ilan", "share/man/man1/ilan.1",
                 "share/man/man7/ilan-env.7", "share/ilan/python/ilan/cli.py",
                 "share/ilan/bench/kernels/kernel.h", "share/doc/ilan/LICENSE"):
        assert (prefix / path).exists(), path


@pytest.mark.skipif(not shutil.which("pkg-config"), reason="pkg-config not installed")
def test_a_pkg_config_build_runs_on_ilan(prefix, tmp_path):
    env = clean_env(tmp_path)
    env["PKG_CONFIG_PATH"] = str(prefix / "lib" / "pkgconfig")
    (tmp_path / "app.c").write_text(APP)
    flags = run(["pkg-config", "--cflags", "--libs", "ilan"], env=env)
    assert flags.returncode == 0, flags.stderr
    assert run(["pkg-config", "--modversion", "ilan"], env=env).stdout.strip() == VERSION
    libdir = run(["pkg-config", "--variable=libdir", "ilan"], env=env).stdout.strip()
    assert Path(libdir) == prefix / "lib" / "ilan"
    # As documented: the flags alone, and with the explicit rpath on top.
    for extra in ([], ["-Wl,-rpath," + libdir]):
        app = tmp_path / "app"
        cc = run(["gcc", "-fopenmp", str(tmp_path / "app.c"), *flags.stdout.split(), *extra,
                  "-o", str(app)], env=env)
        assert cc.returncode == 0, cc.stderr
        assert_on_ilan(app, prefix, env)


def test_a_cmake_find_package_build_runs_on_ilan_built_and_installed(prefix, tmp_path):
    env = clean_env(tmp_path)
    src = tmp_path / "consumer"
    src.mkdir()
    (src / "app.c").write_text(APP)
    (src / "CMakeLists.txt").write_text(CONSUMER_CMAKE)
    build, installed = tmp_path / "build", tmp_path / "app-prefix"
    conf = run(["cmake", "-S", str(src), "-B", str(build), "-DCMAKE_PREFIX_PATH=%s" % prefix,
                "-DCMAKE_INSTALL_PREFIX=%s" % installed], env=env)
    assert conf.returncode == 0, conf.stdout + conf.stderr
    assert "Warning" not in conf.stderr, conf.stderr
    for step in (["cmake", "--build", str(build)], ["cmake", "--install", str(build)]):
        p = run(step, env=env)
        assert p.returncode == 0, p.stdout + p.stderr
    assert_on_ilan(build / "app", prefix, env)
    # install(TARGETS) drops CMake's build rpath; ilan::ilan's own rpath stays.
    assert_on_ilan(installed / "bin" / "app", prefix, env)


def test_the_installed_command_works_away_from_the_source_tree(prefix, tmp_path):
    env = clean_env(tmp_path)
    ilan = str(prefix / "bin" / "ilan")
    p = run([ilan, "--version"], env=env, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.strip() == "ilan " + VERSION, p.stderr
    # It found the installed runtime (not the source tree's build).
    assert str(prefix / "lib" / "ilan" / "libgomp.so.1") in run([ilan, "--help"], env=env).stdout
    app = tmp_path / "omp"
    (tmp_path / "omp.c").write_text(APP.replace("#include <ilan.h>", "int ilan_get_num_numa_nodes(void);")
                                    .replace("ilan_get_num_numa_nodes()", "1"))
    assert run(["gcc", "-fopenmp", str(tmp_path / "omp.c"), "-o", str(app)]).returncode == 0
    p = run([ilan, "run", "--", str(app)], env=env, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith("runtime " + VERSION), p.stdout + p.stderr
    assert "not used" not in p.stderr
    p = run([ilan, "run", "--", "true"], env=env, cwd=tmp_path)
    assert p.returncode == 1 and "ilan was not used" in p.stderr
    # ILAN_LIB points the command elsewhere.
    p = run([ilan, "run", "--", str(app)], env=dict(env, ILAN_LIB=str(tmp_path / "none")), cwd=tmp_path)
    assert p.returncode == 1 and "ILAN_LIB" in p.stderr


def test_the_installed_simulator_runs_away_from_the_source_tree(prefix, tmp_path):
    env = clean_env(tmp_path)
    share = prefix / "share" / "ilan" / "sim"
    assert (prefix / "lib" / "ilan" / "ilan-sim-engine").is_file()
    out = tmp_path / "sim.json"
    p = run([str(prefix / "bin" / "ilan"), "sim", "--policies", "llvm,ilan", "--json", str(out),
             str(share / "workloads" / "bench-cg.json")], env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads(out.read_text())
    # the default machine file is the installed one, and both policies ran
    assert Path(doc["params_file"]).resolve() == (share / "machines" / "vm-2core.json").resolve()
    assert set(doc["workloads"][0]["runs"]) == {"llvm", "ilan"}


@pytest.mark.skipif(not shutil.which("groff"), reason="groff not installed")
def test_the_man_pages_render_without_warnings(prefix):
    for page in ("man1/ilan.1", "man7/ilan-env.7"):
        p = run(["groff", "-man", "-ww", "-z", str(prefix / "share" / "man" / page)])
        assert p.returncode == 0 and p.stderr == "", p.stderr
