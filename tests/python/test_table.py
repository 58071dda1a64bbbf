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
