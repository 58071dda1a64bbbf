"""The `ilan` command-line tool: run, bench, report and topo for the ilan OpenMP runtime."""

__version__ = "0.1.0"


class IlanError(Exception):
    """A failure to show the user as one message that says what to do next."""
