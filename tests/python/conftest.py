"""Shared fixtures of the ilan tool's tests: the report fixture and a fake kernel maker."""

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from ilan.kernels import Kernel

FIXTURES = Path(__file__).with_name("fixtures")


@pytest.fixture
def report_doc():
    return json.loads((FIXTURES / "report.json").read_text())


@pytest.fixture
def fake_kernel(tmp_path):
    """make(name, body): a Kernel whose program is the Python `body` (it gets
    the runner's arguments in sys.argv)."""
    def make(name, body):
        script = tmp_path / (name + ".py")
        script.write_text("import sys, time\n" + textwrap.dedent(body))
        os.chmod(script, 0o755)
        return Kernel(name, "fake", variants=("taskloop",), command=(sys.executable, str(script)))
    return make
