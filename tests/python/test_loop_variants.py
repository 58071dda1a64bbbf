"""Variants that set the environment (schedule(runtime) under OMP_SCHEDULE=NAME) and run only on the runtimes that know them: the plan, the run's environment, the reproduce line, --variants all."""

import argparse

import pytest

from ilan import cli, kernels, runner
from ilan.kernels import Kernel
from ilan.runtimes import LIBOMP, Runtime

GOMP = Runtime("libgomp", "libgomp")
OMP = Runtime("libomp", "libomp", LIBOMP, preload=True)
ILAN = Runtime("ilan", "ilan", env={"ILAN_TASKLOOP": "ilan"})
ENV, FAM = kernels.runtime_variants(["fac2", "static_steal", "auto"])
LOOP = Kernel("loop", "a loop kernel", variants=("dynamic", "static") + tuple(ENV),
              variant_env=ENV, variant_families=FAM)
OVER = Kernel("over", "an overhead program", variants=("overhead",), kind="overhead",
              args={"tiny": ["--only", "runtime"]}, variant_env=ENV, variant_families=FAM)


def names(jobs):
    return [(k.name, v, rt.name) for k, v, rt, _ in jobs]


def test_runtime_variants_set_omp_schedule_and_name_their_runtimes():
    assert ENV["runtime:fac2"] == {"OMP_SCHEDULE": "fac2"}
    assert FAM == {"runtime:fac2": ("ilan",), "runtime:static_steal": ("libomp", "ilan"),
                   "runtime:auto": ("libgomp", "libomp", "ilan")}
    assert LOOP.env_for("runtime:static_steal") == {"OMP_SCHEDULE": "static_steal"}
    assert LOOP.env_for("static") == {} and LOOP.env_for(None) == {}


def test_a_runtime_skips_the_variants_it_does_not_know():
    jobs = names(runner.plan([LOOP], [GOMP, OMP, ILAN], variants=["all"], threads=[2]))
    assert jobs == [("loop", v, rt) for v in ("dynamic", "static") for rt in ("libgomp", "libomp", "ilan")] + [
        ("loop", "runtime:fac2", "ilan"),
        ("loop", "runtime:static_steal", "libomp"), ("loop", "runtime:static_steal", "ilan"),
        ("loop", "runtime:auto", "libgomp"), ("loop", "runtime:auto", "libomp"),
        ("loop", "runtime:auto", "ilan")]


def test_chosen_variants_still_add_the_static_reference_line():
    jobs = names(runner.plan([LOOP], [GOMP, ILAN], variants=["runtime:fac2"], threads=[2]))
    assert jobs == [("loop", "static", "libgomp"), ("loop", "runtime:fac2", "ilan")]


def test_an_overhead_program_runs_once_per_environment_without_a_variant_argument():
    jobs = names(runner.plan([OVER], [GOMP, ILAN], threads=[2]))
    assert jobs == [("over", "runtime:fac2", "ilan"), ("over", "runtime:static_steal", "ilan"),
                    ("over", "runtime:auto", "libgomp"), ("over", "runtime:auto", "ilan")]
    assert OVER.argv("runtime:fac2", "tiny") == ["--only", "runtime"]
    assert LOOP.argv("runtime:fac2", "tiny") == ["--variant", "runtime:fac2"]


def test_the_run_gets_the_variable_and_the_reproduce_line_shows_it(fake_kernel):
    probe = fake_kernel("probe", """
        import os
        print("RESULT kernel=probe variant=%s runtime=libgomp time_s=0.001 checksum=1 "
              "expected=1 verified=%d" % (sys.argv[2], os.environ.get("OMP_SCHEDULE") == "fac2"))
    """)
    k = Kernel(probe.name, probe.what, variants=("runtime:fac2",), command=probe.command,
               variant_env={"runtime:fac2": {"OMP_SCHEDULE": "fac2"}})
    rec = runner.run_one(k, "runtime:fac2", GOMP, k.build(), "tiny", 2, 30)
    assert rec["status"] == "ok", rec["reason"]
    line = runner.describe(["prog"], {"OMP_NUM_THREADS": "2", "OMP_SCHEDULE": "fac2"}, GOMP,
                           ["OMP_SCHEDULE"])
    assert line == "OMP_NUM_THREADS=2 OMP_SCHEDULE=fac2 prog"


def test_the_loop_kernels_offer_every_schedule_and_all_is_a_variant_choice():
    k = kernels.find(["loop_triad"])[0]
    assert k.main_variant == "dynamic" and k.source == "loops.c"
    assert {"static", "static1", "dynamic1", "dynamic16", "guided", "runtime:adaptive",
            "runtime:tss", "runtime:af", "runtime:auto"} <= set(k.variants)
    assert k.argv("static", "tiny")[:4] == ["--variant", "static", "--kernel", "triad"]
    after = kernels.find(["loop_timestep_after"])[0]
    assert after.argv("dynamic", "quick")[2:4] == ["--kernel", "timestep"]
    assert cli.variant_list("all,static") == ["all", "static"]
    with pytest.raises(argparse.ArgumentTypeError):
        cli.variant_list("nosuch")
