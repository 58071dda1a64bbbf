"""Every environment variable the runtime reads is documented: in ilan run --help (ilan/envvars.py) and in the ilan-env(7) man page."""

import re

from ilan import envvars
from ilan.paths import REPO

# The runtime reads variables by name in string literals, in the files that call getenv.
NAME = re.compile(r'"((?:OMP|GOMP|ILAN|HWLOC)_[A-Z0-9_]+)"')


def variables_read_by_the_runtime() -> set[str]:
    names = set()
    for source in (REPO / "src").rglob("*.c"):
        text = source.read_text()
        if "getenv(" in text:
            names |= set(NAME.findall(text))
    return names


def test_the_sources_read_the_variables_we_expect():
    read = variables_read_by_the_runtime()
    assert {"OMP_NUM_THREADS", "ILAN_REPORT", "HWLOC_SYNTHETIC"} <= read


def test_every_variable_is_in_the_help_table():
    listed = {v.name for v in envvars.RUNTIME}
    assert variables_read_by_the_runtime() - listed == set()


def test_every_variable_is_in_the_man_page():
    page = (REPO / "docs" / "man" / "ilan-env.7").read_text().replace("\\-", "-")
    documented = set(re.findall(r"^\.B ((?:OMP|GOMP|ILAN|HWLOC)_[A-Z0-9_]+)$", page, re.M))
    missing = (variables_read_by_the_runtime() | {v.name for v in envvars.RUNTIME}) - documented
    assert missing == set()
