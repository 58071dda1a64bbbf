"""Did a program really run on ilan? glibc's loader lists every library it initialises (LD_DEBUG=files); `ilan run` reads that list after the run."""

import os
import re
import shutil
import struct
import tempfile
from pathlib import Path

# "calling init: /full/path/libx.so" is printed for each library the loader
# initialises, dlopen'ed ones included, one trace file per process.
_INIT_LINE = re.compile(r"calling init: (\S+)")
_PT_INTERP = 3


class LoadTrace:
    """A temporary folder where the loader of the program (and of every
    process it starts) writes which libraries it loaded."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ilan-run-"))

    def arm(self, env: dict[str, str]) -> None:
        """Ask the loader for the trace in `env` (the program's environment)."""
        env["LD_DEBUG"] = "files"
        env["LD_DEBUG_OUTPUT"] = str(self.folder / "ld")

    def libraries(self) -> list[set[str]]:
        """Per traced process, the resolved paths of the libraries it initialised."""
        out = []
        for trace in self.folder.glob("ld.*"):
            text = trace.read_text(errors="replace")
            out.append({os.path.realpath(m) for m in _INIT_LINE.findall(text)})
        return out

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def is_dynamic_elf(path: str) -> bool | None:
    """True for an ELF program that the dynamic loader starts, False for a
    static one, None when `path` is not an ELF file (a script, say)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 64 or head[:4] != b"\x7fELF":
                return None
            is64, little = head[4] == 2, head[5] == 1
            order = "<" if little else ">"
            if is64:
                phoff, = struct.unpack_from(order + "Q", head, 32)
                phentsize, phnum = struct.unpack_from(order + "HH", head, 54)
            else:
                phoff, = struct.unpack_from(order + "I", head, 28)
                phentsize, phnum = struct.unpack_from(order + "HH", head, 42)
            for i in range(phnum):
                f.seek(phoff + i * phentsize)
                p_type, = struct.unpack(order + "I", f.read(4))
                if p_type == _PT_INTERP:
                    return True
            return False
    except (OSError, struct.error):
        return None


def program_path(argv0: str) -> str:
    """The file `argv0` runs, looked up in PATH as the shell does."""
    if "/" in argv0:
        return argv0
    return shutil.which(argv0) or argv0


def verdict(argv0: str, loaded: list[set[str]], ilan_library: str) -> str | None:
    """None when some process of the run loaded `ilan_library`; else one
    line that says why the program did not run on ilan and what to do."""
    ours = os.path.realpath(ilan_library)
    if any(ours in libs for libs in loaded):
        return None
    name = os.path.basename(argv0)
    if not loaded:
        dynamic = is_dynamic_elf(program_path(argv0))
        if dynamic is False:
            return ("%s is statically linked, so it cannot load ilan's libgomp.so.1: "
                    "link it without -static" % name)
        return ("could not tell whether %s ran on ilan: the loader traced nothing "
                "(a setuid program?)" % name)
    every = set().union(*loaded)
    gomps = sorted(p for p in every if os.path.basename(p).startswith("libgomp.so"))
    if gomps:
        return ("%s loaded %s, not ilan's %s: an RPATH, LD_PRELOAD or "
                "/etc/ld.so.preload chose it (check with ldd)" % (name, gomps[0], ours))
    others = sorted(p for p in every if re.match(r"lib(i?omp|iomp5)\.so", os.path.basename(p)))
    if others:
        return ("%s runs on %s (built with clang -fopenmp or icx?): ilan replaces GNU "
                "libgomp only; build it with gcc -fopenmp" % (name, others[0]))
    return ("%s loaded no OpenMP runtime (libgomp.so.1): it was not built with "
            "gcc -fopenmp, or it never uses OpenMP" % name)
