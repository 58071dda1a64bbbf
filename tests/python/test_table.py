"""Summaries, ratios and table rendering of `ilan bench` on fixed runs."""

import pytest

from ilan import table


def run(kernel, variant, runtime, value, status="ok", reason=None, rnd=0):
    ms = [{"variant": variant, "unit": "s", "value": value}] if status == "ok" else []
    return {"kernel": kernel, "variant": variant, "runtime": runtime, "threads": 2,
            "argv": [], "status": status, "reason": reason, "measurements": ms, "round": rnd}


RUNS = [run("stream", "static", "libgomp", 1.0),
        run("stream", "taskloop", "libgomp", 2.0), run("stream", "taskloop", "libomp", 4.0),
        run("stream", "taskloop", "ilan", 1.0),
        run("stream", "static", "libgomp", 3.0, rnd=1),
        run("stream", "taskloop", "libgomp", 4.0, rnd=1),
        run("stream", "taskloop", "libomp", 4.0, rnd=1),
        run("stream", "taskloop", "ilan", 0.5, rnd=1),
        run("fib", "task", "libgomp", 1.0),
        run("fib", "task", "ilan", None, status="failed", reason="wrong result: checksum 1, serial 2")]


def test_medians_spreads_and_ratios():
    rows = {(r["kernel"], r["variant"], r["runtime"]): r for r in table.summarise(RUNS)}
    gomp = rows[("stream", "taskloop", "libgomp")]
    assert gomp["values"] == [2.0, 4.0] and gomp["median"] == 3.0
    assert (gomp["min"], gomp["max"]) == (2.0, 4.0)
    ilan = rows[("stream", "taskloop", "ilan")]
    assert ilan["median"] == 0.75
    assert ilan["ratio_libgomp"] == pytest.approx(0.25)
    assert ilan["ratio_libomp"] == pytest.approx(0.75 / 4.0)
    assert ilan["ratio_static"] == pytest.approx(0.75 / 2.0)   # static median: 2.0
    assert rows[("fib", "task", "libgomp")]["ratio_static"] is None


def test_failed_row_has_no_median_and_keeps_its_reason():
    rows = {(r["kernel"], r["variant"], r["runtime"]): r for r in table.summarise(RUNS)}
    bad = rows[("fib", "task", "ilan")]
    assert bad["status"] == "FAILED" and bad["median"] is None
    assert "wrong result" in bad["reason"]


def test_rows_grouped_by_kernel_then_variant_then_runtime():
    order = [(r["kernel"], r["variant"], r["runtime"]) for r in table.summarise(RUNS)]
    assert order[:4] == [("stream", "static", "libgomp"), ("stream", "taskloop", "libgomp"),
                         ("stream", "taskloop", "libomp"), ("stream", "taskloop", "ilan")]


def test_ratio_refuses_non_positive():
    assert table.ratio(1.0, 0.0) is None and table.ratio(-1.0, 2.0) is None
    assert table.ratio(None, 2.0) is None and table.ratio(1.0, 2.0) == 0.5


def test_render_text_and_markdown():
    summary = table.summarise(RUNS)
    text = table.render(summary, {"libomp-x": "skipped: not found"})
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["kernel", "variant", "runtime"]
    ilan_line = next(l for l in lines if l.split()[:2] == ["taskloop", "ilan"])
    assert ilan_line.split()[2:4] == ["ms", "750"]        # 0.75 s shown in ms
    assert "500-1000" in ilan_line and "0.25" in ilan_line
    assert any("FAILED" in l and l.split()[:2] == ["task", "ilan"] for l in lines)
    assert "FAILED fib task on ilan: wrong result" in text
    assert "libomp-x: skipped: not found" in text
    md = table.render(summary, markdown=True)
    assert md.splitlines()[0].startswith("| kernel | variant | runtime")
    assert all(l.startswith("|") for l in md.splitlines()[:8])


def test_fmt():
    assert table.fmt(None) == "-"
    assert table.fmt(1234.5) == "1234" or table.fmt(1234.5) == "1235"
    assert table.fmt(12.345) == "12.3"
    assert table.fmt(0.012345) == "0.0123"


def threaded(kernel, variant, runtime, value, threads):
    r = run(kernel, variant, runtime, value)
    r["threads"] = threads
    return r


THREADED = [threaded("fib", "task", "tbb", 2.0, 1), threaded("fib", "task", "libgomp", 1.0, 1),
            threaded("fib", "task", "ilan", 4.0, 1),
            threaded("fib", "task", "tbb", 1.0, 2), threaded("fib", "task", "libgomp", 8.0, 2),
            threaded("fib", "task", "ilan", 3.0, 2),
            threaded("stream", "static", "libgomp", 1.0, 1),
            threaded("stream", "taskloop", "ilan", 2.0, 1),
            threaded("stream", "static", "libgomp", 4.0, 2),
            threaded("stream", "taskloop", "ilan", 2.0, 2)]


def test_each_thread_count_is_its_own_row_with_ratios_at_that_count():
    rows = {(r["kernel"], r["variant"], r["runtime"], r["threads"]): r
            for r in table.summarise(THREADED)}
    assert len(rows) == len(THREADED)
    assert rows[("fib", "task", "ilan", 1)]["ratio_libgomp"] == pytest.approx(4.0)
    assert rows[("fib", "task", "ilan", 2)]["ratio_libgomp"] == pytest.approx(3.0 / 8.0)
    assert rows[("fib", "task", "ilan", 1)]["ratio_tbb"] == pytest.approx(2.0)
    assert rows[("fib", "task", "ilan", 2)]["ratio_tbb"] == pytest.approx(3.0)
    assert rows[("stream", "taskloop", "ilan", 1)]["ratio_static"] == pytest.approx(2.0)
    assert rows[("stream", "taskloop", "ilan", 2)]["ratio_static"] == pytest.approx(0.5)
    assert rows[("stream", "taskloop", "ilan", 2)]["ratio_tbb"] is None


def test_rows_grouped_by_kernel_then_thread_count():
    order = [(r["kernel"], r["threads"], r["runtime"]) for r in table.summarise(THREADED)]
    assert order[:6] == [("fib", 1, "tbb"), ("fib", 1, "libgomp"), ("fib", 1, "ilan"),
                         ("fib", 2, "tbb"), ("fib", 2, "libgomp"), ("fib", 2, "ilan")]


def test_render_shows_threads_and_the_tbb_column_only_when_needed():
    lines = table.render(table.summarise(THREADED)).splitlines()
    assert lines[0].split()[:3] == ["kernel", "threads", "variant"]
    assert lines[0].split()[-1] == "/tbb"
    assert lines[1].split()[:4] == ["fib", "1", "task", "tbb"]
    assert lines[2].split()[:2] == ["task", "libgomp"]          # group continues: no name, no count
    assert lines[4].split()[:3] == ["2", "task", "tbb"]         # the next thread count of fib
    ilan2 = lines[6].split()
    assert ilan2[:2] == ["task", "ilan"] and ilan2[-1] == "3.00"  # 3 s / tbb's 1 s
    assert lines[7].split()[:4] == ["stream", "1", "static", "libgomp"]
    md = table.render(table.summarise(THREADED), markdown=True).splitlines()
    assert md[0] == ("| kernel | threads | variant | runtime | unit | median | spread (min-max) "
                     "| /libgomp | /libomp | /static | /tbb |")
    assert md[1] == "|---|---|---|---|---|" + "---:|" * 6
    one = table.render(table.summarise([r for r in THREADED if r["threads"] == 2
                                        and r["runtime"] != "tbb"])).splitlines()
    assert "threads" not in one[0] and "/tbb" not in one[0]


def test_markdown_separator_matches_the_columns():
    md = table.render(table.summarise(RUNS), markdown=True).splitlines()
    assert md[1] == "|---|---|---|---|" + "---:|" * 5


def test_disturbed_runs_are_marked_beside_their_figures_and_counted():
    quiet = run("stream", "taskloop", "ilan", 1.0)
    busy = dict(run("stream", "taskloop", "ilan", 2.0, rnd=1), seconds=1.0, foreign_cpu=0.4,
                steal=0.0)
    short = dict(run("stream", "taskloop", "libgomp", 2.0), seconds=0.1, foreign_cpu=0.9, steal=0.0)
    runs = [quiet, busy, short]
    assert [table.disturbed(r) for r in runs] == [False, True, False]
    summary = table.summarise(runs)
    ilan = next(r for r in summary if r["runtime"] == "ilan")
    assert ilan["disturbed"] == 1
    text = table.render(summary)
    line = next(l for l in text.splitlines() if "ilan" in l)
    assert "(busy 1/2)" in line
    assert "libgomp" in text and "(busy" not in next(l for l in text.splitlines() if "libgomp" in l)
    note = table.disturbance_note(runs)
    assert note.startswith("machine busy: 1 of 3 runs disturbed") and "not trustworthy" in note
    assert table.disturbance_note([quiet]).startswith("machine quiet")


def test_a_spread_reaching_zero_is_marked_and_gets_no_ratio():
    def over(runtime, value, rnd):
        r = run("taskbench", "overhead", runtime, value, rnd=rnd)
        r["measurements"][0]["unit"] = "us/task"
        return r
    runs = [over("libgomp", 0.010, 0), over("libgomp", -0.002, 1), over("libgomp", 0.004, 2),
            over("ilan", 0.012, 0), over("ilan", 0.015, 1), over("ilan", 0.014, 2),
            over("libomp", 0.050, 0), over("libomp", 0.040, 1), over("libomp", 0.045, 2)]
    rows = {r["runtime"]: r for r in table.summarise(runs)}
    assert not rows["libgomp"]["resolved"] and rows["ilan"]["resolved"]
    assert rows["libgomp"]["ratio_libomp"] is None        # no ratio of an unresolved row
    assert rows["ilan"]["ratio_libgomp"] is None          # nor against one
    assert rows["ilan"]["ratio_libomp"] == pytest.approx(0.014 / 0.045)
    text = table.render(table.summarise(runs))
    gomp_line = next(line for line in text.splitlines()[1:] if " libgomp " in line)
    ilan_line = next(line for line in text.splitlines() if " ilan " in line)
    assert "(n.s.)" in gomp_line and "(n.s.)" not in ilan_line


def test_median_interval_uses_binomial_ranks():
    # n = 9: P(Bin(9, 1/2) <= 1) = 10/512 <= 2.5 % < P(<= 2): the 2nd smallest and 2nd largest
    assert table.median_interval([float(x) for x in range(9)]) == (1.0, 7.0)
    # n = 15: ranks 4 and 12 (P(<= 3) = 576/32768)
    assert table.median_interval([float(x) for x in range(15, 0, -1)]) == (4.0, 12.0)
    assert table.median_interval([1.0] * 5) == (None, None)   # no 95 % interval below 6


def test_paired_ratios_follow_rounds_not_medians():
    # b is slower in the slow round and faster in the fast one: each round's ratio is 0.9
    runs = []
    for rnd, scale in enumerate([1.0, 3.0, 1.0, 3.0, 1.0, 3.0]):
        runs += [run("cg", "taskloop", "ilan", 0.9 * scale, rnd=rnd),
                 run("cg", "taskloop", "ilan-ws", 1.0 * scale, rnd=rnd),
                 run("cg", "taskloop", "libgomp", 5.0, rnd=rnd)]
    runs.append(run("cg", "taskloop", "ilan", None, status="failed", reason="hung", rnd=6))
    runs.append(run("cg", "taskloop", "ilan-ws", 1.0, rnd=6))
    (row,) = table.paired(runs, "ilan", "ilan-ws")
    assert len(row["ratios"]) == 6   # the round where ilan failed is left out
    assert row["median"] == pytest.approx(0.9)
    assert (row["lo"], row["hi"]) == (pytest.approx(0.9), pytest.approx(0.9))
    text = table.render_paired([row])
    assert "ilan / ilan-ws" in text and "0.900-0.900" in text
    assert table.paired(runs, "ilan", "libomp") == []


def test_paired_sides_may_name_variants():
    runs = []
    for rnd in range(6):
        runs += [run("tri", "dynamic", "ilan", 0.8 + 0.01 * rnd, rnd=rnd),
                 run("tri", "guided", "ilan", 5.0, rnd=rnd),
                 run("tri", "dynamic16", "libgomp", 1.0, rnd=rnd)]
    (row,) = table.paired(runs, "ilan@dynamic", "libgomp@dynamic16")
    assert row["variant"] is None and len(row["ratios"]) == 6
    assert row["median"] == pytest.approx(0.825)
    assert table.side("libomp@runtime:static_steal") == ("libomp", "runtime:static_steal")
    assert table.paired(runs, "ilan@static", "libgomp@dynamic16") == []
