"""Where the repository, the built runtime and the benchmark binaries are."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def build_dir():
    """The ilan build folder: $ILAN_BUILD_DIR, else <repo>/build."""
    return Path(os.environ.get("ILAN_BUILD_DIR") or REPO / "build")


def lib_dir():
    """The folder holding ilan's libgomp.so.1."""
    return build_dir() / "lib"


def bin_dir():
    """Where benchmark binaries are compiled to."""
    return build_dir() / "bench"


def results_dir():
    """Where `ilan bench` writes its JSON and chart by default."""
    return REPO / "bench" / "results"


def rel(path):
    """A path relative to the repository when it lies inside it."""
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)
