"""Clean failures: a runtime that is not installed, and kernels that fail, lie or hang."""

import pytest

from ilan import IlanError, cli, runner, runtimes, table
from ilan.runtimes import Runtime

GOMP = Runtime("libgomp", "libgomp")
GOOD_LINE = ("RESULT kernel=fake variant=taskloop runtime=libgomp threads=2 n=1 reps=1 "
             "time_s=0.5 checksum=3 expected=3 verified=1")


def one(kernel, timeout=30, runtime=GOMP):
    return runner.run_one(kernel, "taskloop", runtime, kernel.build(), "tiny", 2, timeout)


def test_missing_libomp_is_skipped_with_what_to_do(monkeypatch):
    monkeypatch.setattr(runtimes, "LIBOMP", "/nonexistent/libomp.so")
    present, skipped = runtimes.select([], runtimes.all_runtimes())
    assert "libomp" not in [r.name for r in present] and "libgomp" in [r.name for r in present]
    assert "/nonexistent/libomp.so not found" in skipped["libomp"]
    assert "apt-get install" in skipped["libomp"]


def test_dlb_runtimes_run_only_when_named():
    present, _ = runtimes.select([], runtimes.all_runtimes())
    assert not {"ilan-na-ws", "ilan-na-rp"} & {r.name for r in present}
    present, _ = runtimes.select(["ilan-na-rp", "libgomp"], runtimes.all_runtimes())
    assert [r.name for r in present] == ["libgomp", "ilan-na-rp"]
    assert present[1].environ(2)["ILAN_DLB"] == "na-rp"


def test_missing_ilan_build_is_skipped_with_make(monkeypatch, tmp_path):
    monkeypatch.setenv("ILAN_BUILD_DIR", str(tmp_path))
    present, skipped = runtimes.select(["ilan", "ilan-ws", "libgomp"], runtimes.all_runtimes())
    assert [r.name for r in present] == ["libgomp"]
    assert set(skipped) == {"ilan", "ilan-ws"} and "make" in skipped["ilan"]


def test_bench_with_no_runtime_left_fails_cleanly(monkeypatch, capsys):
    monkeypatch.setattr(runtimes, "LIBOMP", "/nonexistent/libomp.so")
    assert cli.main(["bench", "--runtimes", "libomp", "--kernels", "fib"]) == 1
    err = capsys.readouterr().err
    assert "libomp: skipped" in err and "ilan: error: no runtime left to run" in err


def test_unknown_names_are_errors():
    with pytest.raises(IlanError, match="unknown runtime 'gomp'"):
        runtimes.select(["gomp"], runtimes.all_runtimes())
    assert cli.main(["bench", "--kernels", "nosuch"]) == 1


def test_a_good_fake_run_is_ok(fake_kernel):
    rec = one(fake_kernel("good", "print(%r)\n" % GOOD_LINE))
    assert rec["status"] == "ok" and rec["measurements"][0]["value"] == 0.5


def test_exit_status_is_a_failure(fake_kernel):
    rec = one(fake_kernel("crash", "sys.stderr.write('boom: bad thing\\n'); sys.exit(1)\n"))
    assert rec["status"] == "failed"
    assert "exit status 1: boom: bad thing" in rec["reason"]
    assert "reproduce with: OMP_NUM_THREADS=2" in rec["reason"]


def test_wrong_checksum_is_a_failure(fake_kernel):
    line = GOOD_LINE.replace("checksum=3", "checksum=4").replace("verified=1", "verified=0")
    rec = one(fake_kernel("liar", "print(%r)\n" % line))
    assert rec["status"] == "failed" and "wrong result: checksum 4" in rec["reason"]


def test_missing_result_line_is_a_failure(fake_kernel):
    rec = one(fake_kernel("mute", "print('hello')\n"))
    assert rec["status"] == "failed" and "no RESULT line" in rec["reason"]


def test_hang_is_a_timeout(fake_kernel):
    rec = one(fake_kernel("hang", "time.sleep(30)\n"), timeout=1)
    assert rec["status"] == "failed" and "timed out after 1 s" in rec["reason"]


def test_wrong_runtime_is_a_failure(fake_kernel):
    rec = one(fake_kernel("other", "print(%r)\n" % GOOD_LINE),
              runtime=Runtime("ilan", "ilan", env={"ILAN_TASKLOOP": "ilan"}))
    assert rec["status"] == "failed" and "not ilan" in rec["reason"] and "make" in rec["reason"]


def test_failed_kernel_is_marked_failed_in_the_table(fake_kernel):
    good = fake_kernel("fine", "print(%r)\n" % GOOD_LINE)
    bad = fake_kernel("bad", "sys.exit(3)\n")
    runs = runner.bench([good, bad], [GOMP], "tiny", 2, 2, 30)
    assert [r["kernel"] for r in runs] == ["fine", "bad", "fine"]   # bad not retried
    text = table.render(table.summarise(runs))
    bad_line = next(l for l in text.splitlines() if l.startswith("bad"))
    assert "FAILED" in bad_line
    assert "FAILED bad taskloop on libgomp: exit status 3" in text


def test_ilan_run_sets_the_environment(tmp_path, capsys):
    """ilan run: ilan's build/lib first, the mode, the report path; a note when no report came."""
    from ilan import cli
    from ilan.paths import lib_dir
    out = tmp_path / "env.txt"
    status = cli.main(["run", "--no-check", "--mode", "numa", "--threads", "3", "--report",
                       str(tmp_path / "r.json"), "--", "sh", "-c", "env > %s; exit 7" % out])
    assert status == 7
    env = dict(l.split("=", 1) for l in out.read_text().splitlines() if "=" in l)
    assert env["LD_LIBRARY_PATH"].split(":")[0] == str(lib_dir())
    assert env["ILAN_TASKLOOP"] == "numa" and env["OMP_NUM_THREADS"] == "3"
    assert env["ILAN_REPORT"] == str(tmp_path / "r.json")
    assert "no report was written" in capsys.readouterr().err
    assert cli.main(["run"]) == 1
