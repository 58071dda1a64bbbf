"""Where the ilan runtime, the benchmark sources and the tool's own output go, in a source tree or an installed prefix."""

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# The source tree (python/ilan/..), or PREFIX/share/ilan once installed: both
# hold bench/ (the benchmark sources) beside python/.
REPO = PACKAGE.parents[1]
# Written by `make install` (cmake/IlanInstall.cmake): the runtime's folder,
# relative to this package. Its presence is what "installed" means.
INSTALLED_LIBDIR_FILE = PACKAGE / "LIBDIR"


def installed() -> bool:
    """True when this package runs from an install, not from a source tree."""
    return INSTALLED_LIBDIR_FILE.exists()


def build_dir() -> Path:
    """The ilan build folder of a source tree: $ILAN_BUILD_DIR, else <repo>/build."""
    return Path(os.environ.get("ILAN_BUILD_DIR") or REPO / "build")


def lib_dir() -> Path:
    """The folder holding ilan's libgomp.so.1: $ILAN_LIB (that folder or the
    library file), else $ILAN_BUILD_DIR/lib, else the install's PREFIX/lib/ilan,
    else the source tree's build/lib."""
    chosen = os.environ.get("ILAN_LIB")
    if chosen:
        path = Path(chosen)
        return path.parent if path.is_file() else path
    if os.environ.get("ILAN_BUILD_DIR") or not installed():
        return build_dir() / "lib"
    return (PACKAGE / INSTALLED_LIBDIR_FILE.read_text().strip()).resolve()


def how_to_get_library() -> str:
    """What to do when the runtime is missing, for this kind of setup."""
    if installed() and not os.environ.get("ILAN_BUILD_DIR"):
        return "reinstall ilan, or set ILAN_LIB to the folder holding ilan's libgomp.so.1"
    return "build ilan first (make), or set ILAN_LIB to the folder holding ilan's libgomp.so.1"


def bin_dir() -> Path:
    """Where benchmark and probe binaries are compiled to: the build folder
    in a source tree, a cache folder per version when installed."""
    if installed() and not os.environ.get("ILAN_BUILD_DIR"):
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        version = (PACKAGE / "VERSION").read_text().strip()
        return Path(cache) / "ilan" / version / "bench"
    return build_dir() / "bench"


def results_dir() -> Path:
    """Where `ilan bench` writes its JSON and chart by default: bench/results
    in a source tree, ./ilan-results when installed."""
    if installed():
        return Path.cwd() / "ilan-results"
    return REPO / "bench" / "results"


def rel(path: "str | os.PathLike[str]") -> str:
    """A path relative to the source tree when it lies inside it (as is
    when installed: PREFIX/share/ilan is no place a user works in)."""
    if installed():
        return str(path)
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)
