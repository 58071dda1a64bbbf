"""tools/check_layers.py, on made-up source trees: an include that goes up a layer, a circle of modules, atomics in pure policy, a system call or an environment read out of place are each reported; a clean tree passes."""

import importlib.util
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "check_layers.py"
spec = importlib.util.spec_from_file_location("check_layers", TOOL)
assert spec and spec.loader
check_layers = importlib.util.module_from_spec(spec)
sys.modules["check_layers"] = check_layers
spec.loader.exec_module(check_layers)


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    src = tmp_path / "src"
    for name, text in files.items():
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return src


def test_a_clean_tree_passes(tmp_path):
    src = tree(tmp_path, {
        "abi/a.c": '#include "construct/c.h"\n',
        "construct/c.h": '#include "core/k.h"\n',
        "core/k.h": '#include "sched/s.h"\n#include "config/env.h"\n',
        "sched/s.h": '#include "base/b.h"\n',
        "base/b.h": "",
        "config/env.h": '#include "sched/s.h"\n',
        "config/env.c": "const char *v(void) { return getenv(\"X\"); }\n",
    })
    assert check_layers.check(src) == []


def test_an_include_up_a_layer_is_reported(tmp_path):
    src = tree(tmp_path, {"core/k.c": '#include "abi/a.h"\n', "abi/a.h": ""})
    assert check_layers.check(src) == ["core/k.c: includes abi/a.h: core may not call abi"]


def test_config_may_not_call_up(tmp_path):
    src = tree(tmp_path, {"config/env.c": '#include "topo/t.h"\n', "topo/t.h": ""})
    assert check_layers.check(src) == ["config/env.c: includes topo/t.h: config may not call topo"]


def test_a_circle_of_modules_is_reported(tmp_path):
    src = tree(tmp_path, {
        "core/a.c": '#include "core/b.h"\n', "core/a.h": "",
        "core/b.c": '#include "core/a.h"\n', "core/b.h": "",
    })
    assert check_layers.check(src) == [
        "modules depend on each other in a circle: core/a, core/b"]


def test_pure_policy_stays_pure_and_syscalls_stay_in_os(tmp_path):
    src = tree(tmp_path, {
        "sched/p.c": "#include <stdatomic.h>\n_Atomic int x;\n",
        "core/k.c": "#include <unistd.h>\nint f(void) { return getenv(\"A\") != 0; }\n",
        "os/linux/o.c": "#include <unistd.h>\n",
    })
    problems = check_layers.check(src)
    assert "sched/p.c: uses <stdatomic.h>: sched/ is pure policy" in problems
    assert "core/k.c: includes <unistd.h>: system calls belong in os/" in problems
    assert "core/k.c: reads the environment: only config/ does" in problems
    assert not any(p.startswith("os/") for p in problems)


def test_the_real_tree_passes():
    assert check_layers.check(TOOL.parent.parent / "src") == []
