"""`ilan report` and the topology printing, on the hand-made ILAN_REPORT fixture."""

import json

import pytest

from ilan import IlanError, cli, report, topo

from conftest import FIXTURES


def test_render_lists_every_taskloop_config_and_choice(report_doc):
    text = report.render(report_doc)
    assert "ilan 0.1.0, taskloop mode ilan, steal policy chosen per taskloop" in text
    # most expensive taskloop first: 100 x 1 ms before 3 x 0.2 ms
    assert text.index("main._omp_fn.1") < text.index("0x55d0c0a05678")
    assert "64000 iterations, 100 executions, team of 4, 1 exploration(s), settled" in text
    lines = text.splitlines()
    chosen_row = [l for l in lines if l.strip().startswith("*")]
    assert len(chosen_row) == 1 and chosen_row[0].split()[1:5] == ["0", "2", "strict", "0.001"]
    assert "chosen: groups 0, 2 workers, strict" in text
    assert "chosen: none yet (exploring)" in text
    assert "taskloop ? (0x55d0c0a05678)" in text     # symbol null


def test_draw_writes_a_png(report_doc, tmp_path):
    out = report.draw(report_doc, tmp_path / "r.png")
    assert out is not None and (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert report.draw({"taskloops": []}, tmp_path / "none.png") is None


def test_cli_report_prints_and_writes_chart(tmp_path, capsys):
    src = tmp_path / "run.json"
    src.write_text((FIXTURES / "report.json").read_text())
    assert cli.main(["report", str(src)]) == 0
    out = capsys.readouterr().out
    assert "main._omp_fn.1" in out and "chart: %s" % (tmp_path / "run.png") in out
    assert (tmp_path / "run.png").exists()


def test_load_errors_say_what_to_do(tmp_path):
    with pytest.raises(IlanError, match="ILAN_REPORT="):
        report.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(IlanError, match="not JSON"):
        report.load(bad)
    bad.write_text(json.dumps({"x": 1}))
    with pytest.raises(IlanError, match="not an ILAN_REPORT file"):
        report.load(bad)


def test_topology_description(report_doc):
    text = topo.describe(report_doc["topology"])
    assert text.splitlines()[0] == "what-if model (source: HWLOC_SYNTHETIC=numa:2 core:2 pu:1)"
    assert "1 package(s), 2 NUMA node(s), 2 last-level cache(s), 4 core(s), 4 PU(s)" in text
    assert "ILAN decides per node: 2 group(s)" in text
    assert "group 1: node 1, cores 2,3" in text
    assert "node 0: cores 0,1" in text
    assert "  10   21" in text
    assert "4 place(s) (OS CPU ids): {0} {1} {2} {3}" in text


def test_topo_command_prints_the_runtime_model(capsys):
    """The runtime in build/lib writes reports: `ilan topo` prints its model."""
    assert cli.main(["topo"]) == 0
    out = capsys.readouterr().out
    assert "NUMA node(s)" in out and "place(s)" in out
