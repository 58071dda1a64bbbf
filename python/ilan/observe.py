"""The counters' part of an ILAN_REPORT file (threads, os, regions) as aligned tables and a per-thread chart, and an ILAN_TRACE file summarised."""

import json
from pathlib import Path
from typing import Any

from . import IlanError
from .chart import pyplot, save
from .table import fmt

# Thread states in the order the report gives them and the chart stacks them.
STATES = ["task", "create", "taskwait", "barrier", "stall", "sleep", "idle"]


def aligned(head: list[str], body: list[list[str]], indent: str = "  ") -> list[str]:
    """Rows as text columns: the first left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    out = []
    for r in [head] + body:
        cells = [r[0].ljust(widths[0])] + [x.rjust(w) for x, w in zip(r[1:], widths[1:], strict=True)]
        out.append(indent + "  ".join(cells).rstrip())
    return out


def count(x: Any) -> str:
    """An integer cell; "-" when the value is missing."""
    return "-" if x is None else str(int(x))


def stolen(c: dict[str, Any]) -> int:
    return int(c.get("steals_local", 0)) + int(c.get("steals_remote", 0))


def render(doc: dict[str, Any]) -> str:
    """Per-thread counters, time per state, OS counters, the OS-noise
    summary and the regions; "" when the report has no counters."""
    threads = doc.get("threads")
    if not threads:
        level = (doc.get("counters") or {}).get("level", "off")
        return "counters: %s (ILAN_COUNTERS=runtime, os or all to count)" % level
    lines = ["counters: %s, clock %s, %d thread(s)" % (
        doc["counters"]["level"], doc["counters"]["clock"], len(threads))]
    head = ["thread", "tid", "created", "executed", "foreign", "stolen local", "stolen remote",
            "own group", "other group", "barriers", "taskwaits", "spun", "yielded", "slept",
            "wakes", "chunks"]
    body = []
    for t in threads:
        c = t["counters"]
        body.append([str(t["id"]), str(t["tid"])] + [count(c.get(k)) for k in (
            "tasks_created", "tasks_executed", "tasks_executed_foreign", "steals_local",
            "steals_remote", "group_own")] + [count(c.get("group_other", 0) + c.get("group_strict_other", 0) + c.get("group_escape", 0))]
            + [count(c.get(k)) for k in ("barriers", "taskwaits", "waits_spun", "waits_yielded",
                                        "waits_slept", "wakes", "loop_chunks")])
    lines += aligned(head, body)
    lines.append("")
    lines.append("time per thread (s)")
    head = ["thread"] + STATES + ["total", "descheduled"]
    body = []
    for t in threads:
        ts = t["time_s"]
        os_ = t.get("os")
        body.append([str(t["id"])] + [fmt(ts.get(s)) for s in STATES] +
                    [fmt(sum(float(ts.get(s, 0)) for s in STATES)),
                     fmt(os_["descheduled_s"]) if os_ else "-"])
    lines += aligned(head, body)
    lines.append("")
    lines += render_os(doc)
    regions = doc.get("regions") or []
    if regions:
        lines.append("")
        lines.append("regions and taskloops (by thread time)")
        head = ["kind", "function", "calls", "threads", "wall s", "thread s", "tasks", "stolen",
                "ctx switches", "migrations", "descheduled s"]
        body = []
        for r in sorted(regions, key=lambda r: -float(r["thread_s"])):
            o = r.get("os")
            body.append([r["kind"], r.get("symbol") or r["fn"], count(r["calls"]),
                         count(r["threads"]), fmt(r["wall_s"]), fmt(r["thread_s"]),
                         count(r.get("tasks", r["counters"].get("tasks_created"))),
                         count(stolen(r["counters"])),
                         count(o["context_switches"]) if o else "-",
                         count(o["cpu_migrations"]) if o else "-",
                         fmt(o["descheduled_s"]) if o else "-"])
        lines += aligned(head, body)
    return "\n".join(lines)


def render_os(doc: dict[str, Any]) -> list[str]:
    """The OS counters per thread and the noise summary, or why there are none."""
    os_ = doc.get("os") or {}
    if not os_.get("available"):
        return ["OS counters: unavailable (%s)" % (os_.get("reason") or "not requested")]
    head = ["thread", "ctx switches", "migrations", "minor faults", "major faults", "on CPU s",
            "descheduled s"]
    if os_.get("hardware"):
        head.append("IPC")
    body = []
    for t in doc["threads"]:
        o = t.get("os")
        if not o:
            body.append([str(t["id"])] + ["-"] * (len(head) - 1))
            continue
        row = [str(t["id"]), count(o["context_switches"]), count(o["cpu_migrations"]),
               count(o["minor_faults"]), count(o["major_faults"]), fmt(o["task_clock_s"]),
               fmt(o["descheduled_s"])]
        if os_.get("hardware"):
            row.append(fmt(o["instructions"] / o["cycles"]) if o.get("cycles") else "-")
        body.append(row)
    lines = ["OS counters per thread"] + aligned(head, body)
    n = os_.get("noise")
    if n:
        lines.append("OS noise: %d context switches, %d migrations; the OS took %s s of %s s "
                     "thread time in parallel regions (%.1f %%)" % (
                         n["context_switches"], n["cpu_migrations"], fmt(n["descheduled_s"]),
                         fmt(n["region_thread_s"]), 100 * float(n["descheduled_fraction"])))
    return lines


def draw(doc: dict[str, Any], path: Path) -> Path | None:
    """PNG of (a) each thread's time per state, stacked, with the time the OS
    took beside it, and (b) tasks created, executed and stolen per thread.
    None when the report has no counters."""
    threads = doc.get("threads")
    if not threads:
        return None
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 3.8))
    ids = [int(t["id"]) for t in threads]
    bottom = [0.0] * len(threads)
    for s in STATES:
        v = [float(t["time_s"].get(s, 0)) for t in threads]
        ax.bar(ids, v, bottom=bottom, width=0.6, label=s)
        bottom = [a + b for a, b in zip(bottom, v, strict=True)]
    des = [float(t["os"]["descheduled_s"]) if t.get("os") else 0.0 for t in threads]
    if any(des):
        ax.bar([i + 0.38 for i in ids], des, width=0.15, color="black", hatch="//",
               label="descheduled (OS)")
    ax.set_xlabel("thread (registration order)")
    ax.set_ylabel("time (s)")
    ax.set_title("where each thread's time went", fontsize=9)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7)
    w = 0.27
    series = {"created": [int(t["counters"]["tasks_created"]) for t in threads],
              "executed": [int(t["counters"]["tasks_executed"]) for t in threads],
              "stolen": [stolen(t["counters"]) for t in threads]}
    for k, (label, n) in enumerate(series.items()):
        bx.bar([i + (k - 1) * w for i in ids], n, width=w, label=label)
    bx.set_xlabel("thread (registration order)")
    bx.set_ylabel("tasks")
    bx.set_title("tasks per thread", fontsize=9)
    bx.xaxis.set_major_locator(MaxNLocator(integer=True))
    bx.yaxis.set_major_locator(MaxNLocator(integer=True))
    bx.legend(fontsize=7)
    return save(fig, path)


def load_trace(path: str) -> dict[str, Any]:
    """A parsed ILAN_TRACE file, or an IlanError saying what is wrong."""
    try:
        doc = json.loads(Path(path).read_text())
    except OSError as e:
        raise IlanError("cannot read %s (%s): run the program with ILAN_TRACE=%s" % (
            path, e.strerror, path)) from None
    except ValueError as e:
        raise IlanError("%s is not JSON (%s): was the program killed while writing it?" % (
            path, e)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise IlanError("%s is not a trace-event file (no \"traceEvents\" list): pass the file "
                        "written by ILAN_TRACE=FILE" % path)
    return doc


def render_trace(doc: dict[str, Any]) -> str:
    """Per thread: slices and total time by name, steals; then what was dropped."""
    names: dict[int, str] = {}
    per: dict[int, dict[str, list[float]]] = {}
    steals: dict[int, int] = {}
    for e in doc["traceEvents"]:
        if not isinstance(e, dict):
            raise IlanError("a trace event is not an object: %r" % (e,))
        tid = int(e.get("tid", 0))
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[tid] = str(e["args"]["name"])
        elif e.get("ph") == "X":
            slot = per.setdefault(tid, {}).setdefault(str(e["name"]), [0.0, 0.0])
            slot[0] += 1
            slot[1] += float(e["dur"])
        elif e.get("name") == "steal":
            steals[tid] = steals.get(tid, 0) + 1
    kinds = ["parallel", "taskloop", "task", "create", "taskwait", "barrier", "sleep"]
    head = ["thread"] + ["%s n / ms" % k for k in kinds] + ["steals"]
    body = []
    for tid in sorted(set(names) | set(per)):
        p = per.get(tid, {})
        body.append([names.get(tid, str(tid))] +
                    ["%d / %s" % (p[k][0], fmt(p[k][1] * 1e-3)) if k in p else "-" for k in kinds] +
                    [str(steals.get(tid, 0))])
    other = doc.get("otherData") or {}
    lines = ["trace: %d events, %d thread(s), clock %s, task sampling 1/%s, %s dropped" % (
        len(doc["traceEvents"]), len(body), other.get("clock", "?"),
        other.get("task_sampling", "?"), other.get("dropped_events", "?"))]
    lines += aligned(head, body)
    lines.append("open it in https://ui.perfetto.dev or chrome://tracing")
    return "\n".join(lines)
