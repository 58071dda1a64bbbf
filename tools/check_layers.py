#!/usr/bin/env python3
"""Checks the runtime's layering: every #include in src/ points down (or across to a module of the same layer), no two modules depend on each other in a circle, and each layer keeps its rules (pure policy without atomics or threads, system calls only in os/, environment reads only in config/)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

# The layers, top to bottom: a module may include its own layer and the
# layers below it. `config` and `instr` serve every layer and may call only
# the layers listed for them.
LAYERS: list[str] = ["abi", "construct", "ilan", "core", "mem", "topo", "sched", "os", "base"]
SERVICES: dict[str, set[str]] = {
    "config": {"sched", "os", "base"},
    "instr": {"config", "sched", "os", "base"},
}

# Headers only the os layer may include: they are how code makes system calls.
SYSCALL_CALLS = re.compile(r"\b(syscall|mlock|munlock|sched_setaffinity|sched_getaffinity|sched_getcpu|sched_yield|mbind|move_pages|perf_event_open)\s*\(")
SYSCALL_HEADERS = {"unistd.h", "fcntl.h", "sched.h", "sys/syscall.h", "sys/mman.h", "sys/stat.h",
                   "sys/auxv.h", "linux/futex.h", "numaif.h"}
# What pure policy may not use.
IMPURE_IN_SCHED = re.compile(r"\b(_Atomic|atomic_\w+|pthread_\w+|getenv)\b|<stdatomic\.h>|<pthread\.h>")
ENV_READ = re.compile(r"\b(secure_)?getenv\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def layer_of(module: str) -> str:
    return module.split("/", 1)[0]


def module_of(path: Path, src: Path) -> str:
    """src/core/team.c and src/core/team.h are the module core/team;
    src/os/linux/futex.h is os/futex."""
    rel = path.relative_to(src).with_suffix("")
    parts = rel.parts
    return parts[0] + "/" + parts[-1]


def allowed(src_layer: str, dst_layer: str) -> bool:
    if src_layer == dst_layer:
        return True
    if src_layer in SERVICES:
        return dst_layer in SERVICES[src_layer]
    if dst_layer in SERVICES:
        return True
    return LAYERS.index(dst_layer) > LAYERS.index(src_layer)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that depend on each other in a circle: the
    strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in sorted(graph.get(m, ())):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                group.append(n)
                if n == m:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return found


def check(src: Path) -> list[str]:
    problems: list[str] = []
    graph: dict[str, set[str]] = {}
    known = set(LAYERS) | set(SERVICES)
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".c", ".h"):
            continue
        rel = path.relative_to(src)
        if len(rel.parts) < 2 or rel.parts[0] not in known:
            problems.append(f"{rel}: not in a layer folder ({', '.join(LAYERS + list(SERVICES))})")
            continue
        mod = module_of(path, src)
        lay = layer_of(mod)
        graph.setdefault(mod, set())
        text = path.read_text()
        code = COMMENT.sub("", text)
        for kind, name in INCLUDE.findall(code):
            if kind == "<":
                if name in SYSCALL_HEADERS and lay != "os":
                    problems.append(f"{rel}: includes <{name}>: system calls belong in os/")
                continue
            target = src / name
            if not target.exists():
                continue  # a generated or external header
            dst = module_of(target, src)
            if dst == mod:
                continue
            graph[mod].add(dst)
            if not allowed(lay, layer_of(dst)):
                problems.append(f"{rel}: includes {name}: {lay} may not call {layer_of(dst)}")
        call = SYSCALL_CALLS.search(code)
        if call and lay != "os":
            problems.append(f"{rel}: calls {call.group(1)}: system calls belong in os/")
        if lay == "sched" and IMPURE_IN_SCHED.search(code):
            what = IMPURE_IN_SCHED.search(code)
            problems.append(f"{rel}: uses {what.group(0) if what else '?'}: sched/ is pure policy")
        if lay != "config" and ENV_READ.search(code):
            problems.append(f"{rel}: reads the environment: only config/ does")
    for group in circles(graph):
        problems.append("modules depend on each other in a circle: " + ", ".join(group))
    return problems


def main() -> int:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "src"
    problems = check(src)
    for p in problems:
        print("layers: " + p)
    print("layers: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
