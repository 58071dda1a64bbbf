"""What the runtime does with the files it writes (ILAN_REPORT) and with being unloaded: bad targets are refused in one line and never waited on, a report appears whole, names expand %p and %r, setuid programs ignore the variable, and a plugin using OpenMP can be dlopen'ed and dlclose'd again and again."""

import json
import os
import shutil
import stat
import subprocess
import textwrap
from pathlib import Path

import pytest

from ilan.paths import build_dir

LIB = build_dir() / "lib"

# A program with a taskloop (so the report has an entry), whose stdout is
# buffered when it is a pipe: the runtime must flush it before the report.
PROGRAM = textwrap.dedent("""\
    #include <stdio.h>
    int main(void)
    {
        long sum = 0;
        printf("partial line, still buffered");
    #pragma omp parallel
    #pragma omp single
        for (int r = 0; r < 5; r++) {
    #pragma omp taskloop reduction(+ : sum)
            for (int i = 0; i < 1000; i++)
                sum += i;
        }
        printf(" sum=%ld\\n", sum);
        return 0;
    }
    """)


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("prog")
    (d / "p.c").write_text(PROGRAM)
    exe = d / "p"
    # An absolute rpath: a setuid program ignores LD_LIBRARY_PATH.
    subprocess.run(["gcc", "-fopenmp", "-O1", str(d / "p.c"), "-o", str(exe),
                    "-Wl,-rpath," + str(LIB.resolve())], check=True)
    return exe


def run(exe, report: str, extra_env=None, timeout=30, prefix=()):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "ILAN_"))}
    env.update({"LD_LIBRARY_PATH": str(LIB), "OMP_NUM_THREADS": "2", "ILAN_REPORT": report})
    env.update(extra_env or {})
    return subprocess.run([*prefix, str(exe)], env=env, capture_output=True, text=True,
                          timeout=timeout)


def refusals(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("ilan: ILAN_REPORT")]


def test_a_regular_file_gets_the_whole_report_and_no_temporary_is_left(program, tmp_path):
    target = tmp_path / "run.json"
    target.write_text("old contents")
    p = run(program, str(target))
    assert p.returncode == 0 and p.stdout == "partial line, still buffered sum=2497500\n"
    doc = json.loads(target.read_text())
    assert len(doc["taskloops"]) == 1
    assert sorted(os.listdir(tmp_path)) == ["run.json"]


def test_a_fifo_nobody_reads_is_refused_without_hanging(program, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    p = run(program, str(fifo), timeout=20)
    assert p.returncode == 0
    assert p.stdout == "partial line, still buffered sum=2497500\n", "the program's output was lost"
    assert refusals(p.stderr) == ["ilan: ILAN_REPORT: not writing %s: it is a FIFO; "
                                  "no report written" % fifo]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_symlink_is_refused_and_its_target_untouched(program, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "link.json"
    link.symlink_to(victim)
    p = run(program, str(link))
    assert p.returncode == 0
    assert refusals(p.stderr) == ["ilan: ILAN_REPORT: not writing %s: it is a symbolic link; "
                                  "no report written" % link]
    assert victim.read_text() == "keep me" and link.is_symlink()


def test_a_directory_is_refused(program, tmp_path):
    p = run(program, str(tmp_path))
    assert p.returncode == 0
    assert refusals(p.stderr) == ["ilan: ILAN_REPORT: not writing %s: it is a directory; "
                                  "no report written" % tmp_path]


def test_percent_p_and_r_name_the_process_and_the_mpi_rank(program, tmp_path):
    p = run(program, str(tmp_path / "r%r-p%p-%%.json"), {"OMPI_COMM_WORLD_RANK": "3"})
    assert p.returncode == 0, p.stderr
    (name,) = os.listdir(tmp_path)
    assert name.startswith("r3-p") and name.endswith("-%.json")
    assert name[len("r3-p"):-len("-%.json")].isdigit()
    p = run(program, str(tmp_path / "slurm-%r.json"), {"SLURM_PROCID": "7"})
    assert (tmp_path / "slurm-7.json").exists()


def test_a_bad_pattern_gets_one_line(program, tmp_path):
    p = run(program, str(tmp_path / "x%q.json"))
    assert p.returncode == 0
    lines = [line for line in p.stderr.splitlines() if "ILAN_REPORT" in line]
    assert len(lines) == 1 and "Invalid value for environment variable ILAN_REPORT" in lines[0]
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="making a setuid-root program needs root")
def test_a_setuid_program_ignores_ilan_report(program, tmp_path):
    runner = shutil.which("setpriv")
    if runner is None:
        pytest.skip("setpriv (util-linux) is not installed")
    # The program, setuid root, in a folder everyone may enter; the target
    # in a folder only root may write.
    public = tmp_path / "public"
    public.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(public, 0o755)
    exe = public / "suid-prog"
    shutil.copy(program, exe)
    os.chown(exe, 0, 0)
    os.chmod(exe, 0o4755)
    private = tmp_path / "root-only"
    private.mkdir(mode=0o700)
    target = private / "created-as-root.json"
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    p = run(exe, str(target), prefix=nobody)
    assert p.returncode == 0, p.stderr
    assert not target.exists(), "a setuid program wrote where its user could not"
    assert [line for line in p.stderr.splitlines() if "ILAN_REPORT" in line] == [
        "ilan: ILAN_REPORT is ignored in a setuid, setgid or capability program; "
        "no report written"]


PLUGIN = textwrap.dedent("""\
    int plugin_sum(int n)
    {
        int sum = 0;
    #pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < n; i++)
            sum += i;
        return sum;
    }
    """)

HOST = textwrap.dedent("""\
    #include <dlfcn.h>
    #include <stdio.h>
    int main(int argc, char **argv)
    {
        for (int cycle = 0; cycle < 100; cycle++) {
            void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
            if (!h) { fprintf(stderr, "dlopen: %s\\n", dlerror()); return 2; }
            int (*sum)(int) = (int (*)(int))dlsym(h, "plugin_sum");
            if (!sum || sum(1000) != 499500) { fprintf(stderr, "cycle %d: wrong sum\\n", cycle); return 3; }
            if (dlclose(h) != 0) { fprintf(stderr, "dlclose: %s\\n", dlerror()); return 4; }
        }
        printf("100 cycles\\n");
        return 0;
    }
    """)


def test_a_plugin_using_openmp_survives_100_dlopen_dlclose_cycles(tmp_path):
    (tmp_path / "plugin.c").write_text(PLUGIN)
    (tmp_path / "host.c").write_text(HOST)
    subprocess.run(["gcc", "-fopenmp", "-O1", "-shared", "-fPIC", str(tmp_path / "plugin.c"),
                    "-o", str(tmp_path / "plugin.so")], check=True)
    subprocess.run(["gcc", "-O1", str(tmp_path / "host.c"), "-o", str(tmp_path / "host"), "-ldl"],
                   check=True)
    env = dict(os.environ, LD_LIBRARY_PATH=str(LIB), OMP_NUM_THREADS="2")
    p = subprocess.run([str(tmp_path / "host"), str(tmp_path / "plugin.so")], env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert p.stdout == "100 cycles\n"
    # The plugin really ran on ilan: the host loaded ilan's libgomp.so.1.
    maps = subprocess.run(["ldd", str(tmp_path / "plugin.so")], env=env, capture_output=True,
                          text=True).stdout
    assert str(LIB) in maps
