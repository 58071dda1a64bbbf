"""Every kernel, in every variant, verifies its result under every runtime and ilan mode (tiny sizes)."""

import pytest

from ilan import kernels, runner
from ilan.runtimes import all_runtimes

RUNTIMES = all_runtimes()
CASES = [(k, v, rt) for k in kernels.KERNELS for v in (k.variants if k.kind == "kernel" else (None,))
         for rt in RUNTIMES]


@pytest.mark.parametrize("kernel,variant,runtime", CASES,
                         ids=["%s-%s-%s" % (k.name, v or "rows", rt.name) for k, v, rt in CASES])
def test_kernel_verifies(kernel, variant, runtime):
    why = runtime.missing()
    if why:
        pytest.skip("%s: %s" % (runtime.name, why))
    rec = runner.run_one(kernel, variant, runtime, kernel.build(), "tiny", 2, 60)
    assert rec["status"] == "ok", rec["reason"]
    assert rec["runtime_self"].split()[0] == runtime.family
    if kernel.kind == "kernel":
        (m,) = rec["measurements"]
        assert m["verified"] == 1 and m["variant"] == variant and m["value"] > 0
    else:
        assert rec["measurements"] and all(m["value"] is not None for m in rec["measurements"])
