"""The `ilan` command-line tool: run, bench, report and topo for the ilan OpenMP runtime."""

from pathlib import Path

# VERSION is the repository's one version file (python/ilan/VERSION links to
# it; an install copies it here); CMake builds the C library's version from it.
__version__ = Path(__file__).with_name("VERSION").read_text().strip()


class IlanError(Exception):
    """A failure to show the user as one message that says what to do next."""
