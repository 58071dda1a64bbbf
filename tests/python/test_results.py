"""The shape of the JSON that `ilan bench` writes (checked by results.problems)."""

import copy
import json

from ilan import results, table
from ilan.runtimes import Runtime

from test_table import RUNS


def doc():
    rts = [Runtime("libgomp", "libgomp"), Runtime("ilan", "ilan", env={"ILAN_TASKLOOP": "ilan"})]
    return results.make("ilan bench --quick", {"size": "quick"}, rts,
                        {"libomp": "skipped: not found"}, copy.deepcopy(RUNS),
                        table.summarise(RUNS))


def test_made_document_has_the_schema_and_survives_json(tmp_path):
    d = doc()
    assert results.problems(d) == []
    path = results.save(d, tmp_path / "sub" / "r.json")
    back = json.loads(path.read_text())
    assert results.problems(back) == []
    assert back["runtimes"]["ilan"]["env"] == {"ILAN_TASKLOOP": "ilan"}
    assert back["machine"]["cpus_affinity"] >= 1


def test_problems_names_what_is_wrong():
    d = doc()
    del d["summary"][0]["median"]
    d["runs"][1]["status"] = "weird"
    d["schema"] = "other"
    got = results.problems(d)
    assert "summary[0]: missing 'median'" in got
    assert "runs[1]: status 'weird'" in got
    assert any(p.startswith("top: schema") for p in got)
    assert results.problems([]) == ["not a JSON object"]


def test_default_name_has_date_and_host(tmp_path):
    stem = results.default_stem(tmp_path, "myhost")
    assert stem.parent == tmp_path and stem.name.startswith("bench-")
    assert stem.name.endswith("-myhost")


def test_table_from_a_saved_run(tmp_path, capsys):
    from ilan import cli
    path = results.save(doc(), tmp_path / "r.json")
    assert cli.main(["bench", "--table-from", str(path), "--kernels", "fib"]) == 0
    out = capsys.readouterr().out
    assert "ilan bench --quick" in out and "fib" in out and "stream" not in out
    (tmp_path / "x.json").write_text("{}")
    assert cli.main(["bench", "--table-from", str(tmp_path / "x.json")]) == 1
