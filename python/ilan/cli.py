"""The `ilan` command line: run, bench, report and topo."""

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from . import IlanError, chart, kernels, report, results, runner, table, topo
from .paths import rel, results_dir
from .runtimes import MODES, all_runtimes, ilan_mode, select


def split_list(text):
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def cmd_run(args):
    """Run a program on this build of ilan; returns its exit status."""
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not argv:
        raise IlanError("no program given: ilan run [--mode M] [--report FILE] -- ./app args")
    rt = ilan_mode(args.mode)
    why = rt.missing()
    if why:
        raise IlanError(why)
    env = rt.environ(args.threads)
    if args.report:
        env["ILAN_REPORT"] = args.report
        if os.path.exists(args.report):
            os.remove(args.report)
    try:
        status = subprocess.run(argv, env=env).returncode
    except OSError as e:
        raise IlanError("cannot run %s: %s (check the path and that it is executable)"
                        % (argv[0], e.strerror))
    if args.report and args.report != "stderr" and not os.path.exists(args.report):
        runner.log("ilan: note: no report was written to %s: this build of the runtime does "
                   "not write reports yet; rebuild with make once it does" % args.report)
    return status


def cmd_bench(args):
    """Run the benchmark matrix, print the table, save JSON and chart."""
    chosen = kernels.find(split_list(args.kernels))
    if args.list:
        for k in kernels.KERNELS:
            print("%-18s %-26s %s" % (k.name, ",".join(k.variants), k.what))
        return 0
    if args.table_from:
        return show_table(args.table_from, [k.name for k in chosen] if args.kernels else None,
                          args.markdown)
    size = args.size or ("quick" if args.quick else "full")
    repeat = args.repeat or (1 if size == "tiny" else 5)
    if repeat < 1 or args.threads < 1:
        raise IlanError("--repeat and --threads must be at least 1")
    present, skipped = select(split_list(args.runtimes), all_runtimes(args.libomp_defaults))
    for name, note in skipped.items():
        runner.log("%s: %s" % (name, note))
    if not present:
        raise IlanError("no runtime left to run: install one of those skipped above")
    variants = split_list(args.variants) or list(runner.MAIN_VARIANTS)
    runs = runner.bench(chosen, present, size, repeat, args.threads, args.timeout, variants)
    summary = table.summarise(runs)
    command = "ilan bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    options = {"size": size, "repeat": repeat, "threads": args.threads,
               "kernels": [k.name for k in chosen], "variants": variants,
               "runtimes": [r.name for r in present], "timeout": args.timeout}
    doc = results.make(command, options, present, skipped, runs, summary)
    stem = Path(args.out) if args.out else results.default_stem(
        results_dir(), doc["machine"]["host"])
    json_path = stem.with_suffix(".json")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    png = None
    if not args.no_chart:
        png = chart.draw(summary, stem.with_suffix(".png"),
                         "%s, %d threads, %s size, median of %d; %s" % (
                             doc["machine"]["cpu_model"], args.threads, size, repeat,
                             doc["date"][:10]))
    doc["chart"] = rel(png) if png else None
    results.save(doc, json_path)
    print("%s, %d threads, %s sizes, median of %d interleaved runs; command: %s"
          % (doc["machine"]["cpu_model"], args.threads, size, repeat, command))
    print(table.render(summary, skipped, args.markdown))
    print(table.LEGEND)
    print("results: %s" % rel(json_path))
    print("chart:   %s" % (rel(png) if png else "none (no kernel with a time)"))
    return 1 if any(r["status"] != "ok" for r in summary) else 0


def show_table(path, names, markdown):
    """Print the table of a saved bench run, its rows limited to `names`."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise IlanError("cannot read %s (%s): pass a JSON file written by ilan bench" % (path, e))
    bad = results.problems(doc)
    if bad:
        raise IlanError("%s is not an ilan bench result: %s" % (path, "; ".join(bad[:3])))
    summary = [r for r in doc["summary"] if names is None or r["kernel"] in names]
    print("%s; command: %s" % (doc["date"], doc["command"]))
    print(table.render(summary, doc["skipped"], markdown))
    return 0


def cmd_report(args):
    doc = report.load(args.file)
    print(report.render(doc))
    png = Path(args.png) if args.png else Path(args.file).with_suffix(".png")
    if report.draw(doc, png, args.top):
        print("chart: %s" % png)
    return 0


def cmd_topo(args):
    print(topo.describe(topo.probe(args.threads)))
    return 0


def parser():
    ap = argparse.ArgumentParser(prog="ilan", description="Run programs on ilan, benchmark "
                                 "it against libgomp and LLVM libomp, read its reports.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("run", help="run a program on this build of ilan")
    p.add_argument("--mode", choices=MODES, default="ilan",
                   help="taskloop scheduling (ILAN_TASKLOOP), default ilan")
    p.add_argument("--report", help="write the scheduler's report here (ILAN_REPORT)")
    p.add_argument("--threads", type=int, help="OMP_NUM_THREADS (default: as set, or all cores)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- ./app args")
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("bench", help="kernels on libgomp, libomp and ilan's modes")
    p.add_argument("--quick", action="store_true", help="quick sizes (make demo: about a minute on 2 cores)")
    p.add_argument("--size", choices=kernels.SIZES, help="problem sizes (default full, "
                   "quick with --quick; tiny is for tests)")
    p.add_argument("--runtimes", help="comma list out of libgomp,libomp,ilan-ws,ilan-numa,ilan")
    p.add_argument("--kernels", help="comma list (default all; see --list)")
    p.add_argument("--variants", help="variants run on every runtime (default taskloop,task; "
                   "the static version always runs on libgomp as the reference)")
    p.add_argument("--repeat", type=int, help="rounds (default 5; 1 with --size tiny)")
    p.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                   help="OMP_NUM_THREADS (default: CPUs in the affinity mask)")
    p.add_argument("--timeout", type=int, default=120, help="seconds before a run counts as hung")
    p.add_argument("--out", help="path of the results without suffix (default "
                   "bench/results/bench-<date>-<host>)")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--no-chart", action="store_true", help="skip the PNG")
    p.add_argument("--libomp-defaults", action="store_true",
                   help="keep libomp's hidden-helper threads (not disabled)")
    p.add_argument("--list", action="store_true", help="list the kernels and exit")
    p.add_argument("--table-from", metavar="FILE.json",
                   help="print the table of a saved run (rows of --kernels only) and exit")
    p.set_defaults(fn=cmd_bench)

    p = sub.add_parser("report", help="an ILAN_REPORT file as a table and a chart")
    p.add_argument("file")
    p.add_argument("--png", help="chart path (default: FILE with .png)")
    p.add_argument("--top", type=int, default=4, help="taskloops in the chart (default 4)")
    p.set_defaults(fn=cmd_report)

    p = sub.add_parser("topo", help="the machine model as ilan sees it")
    p.add_argument("--threads", type=int, help="OMP_NUM_THREADS for the probe")
    p.set_defaults(fn=cmd_topo)
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.fn(args)
    except IlanError as e:
        print("ilan: error: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ilan: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
