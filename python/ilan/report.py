"""`ilan report`: an ILAN_REPORT file as a table per taskloop and a chart of time against participating workers."""

import json
from pathlib import Path
from typing import Any

from . import IlanError
from .chart import pyplot, save
from .table import fmt
from .topo import describe


def load(path: str) -> dict[str, Any]:
    """The parsed report, or an IlanError that says what is wrong."""
    try:
        doc = json.loads(Path(path).read_text())
    except OSError as e:
        raise IlanError("cannot read %s (%s): run the program with ILAN_REPORT=%s, or "
                        "ilan run --report %s -- ./app" % (path, e.strerror, path, path)) from None
    except ValueError as e:
        raise IlanError("%s is not JSON (%s): was the program killed while writing it? "
                        "run it again" % (path, e)) from None
    if not isinstance(doc, dict) or "taskloops" not in doc:
        raise IlanError("%s is not an ILAN_REPORT file (no \"taskloops\"): pass the file "
                        "written by ILAN_REPORT=FILE" % path)
    return doc


def config_label(c: dict[str, Any]) -> str:
    return "groups %s, %d workers, %s" % (",".join(str(g) for g in c["groups"]),
                                         c["workers"], c["steal"])


def cost(loop: dict[str, Any]) -> float:
    """Estimated total time of a taskloop: executions x the best median."""
    meds = [c["median_s"] for c in loop.get("configs", []) if c.get("median_s")]
    return float(loop.get("executions", 0) * (min(meds) if meds else 0.0))


def render(doc: dict[str, Any]) -> str:
    """The report as text: header, topology, then each taskloop (most
    expensive first) with every configuration it measured and its choice."""
    forced = doc.get("steal_policy_forced")
    lines = ["ilan %s, taskloop mode %s, steal policy %s" % (
        doc.get("ilan_version", "?"), doc.get("mode", "?"),
        "forced " + forced if forced else "chosen per taskloop")]
    if doc.get("topology"):
        lines.append(describe(doc["topology"]))
    loops = sorted(doc.get("taskloops", []), key=cost, reverse=True)
    if not loops:
        lines.append("no taskloop ran")
    for t in loops:
        lines.append("")
        lines.append("taskloop %s (%s): %d iterations, %d executions, team of %d, "
                     "%d exploration(s), %s" % (
                         t.get("symbol") or "?", t.get("fn", "?"), t.get("iterations", 0),
                         t.get("executions", 0), t.get("team_workers", 0),
                         t.get("explorations", 0), t.get("state", "?")))
        if t.get("work_s"):
            lines.append("  first run calibrated the task count: %s s of work" % fmt(t["work_s"]))
        chosen = t.get("chosen")
        head = ["", "groups", "workers", "steal", "median s", "runs", "per-group s (latest)"]
        body: list[list[str]] = []
        for c in t.get("configs", []):
            mark = "*" if chosen and all(c.get(k) == chosen.get(k)
                                         for k in ("groups", "workers", "steal")) else ""
            body.append([mark, ",".join(str(g) for g in c["groups"]), str(c["workers"]),
                         c["steal"], fmt(c.get("median_s")), str(c.get("runs", len(c.get("times_s", [])))),
                         " ".join(fmt(x) if x is not None and x >= 0 else "-"
                                  for x in c.get("group_times_s", []))])
        widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
        lines += ["  " + "  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip()
                  for r in [head] + body]
        lines.append("  chosen: " + (config_label(chosen) if chosen else "none yet (exploring)"))
    return "\n".join(lines)


def draw(doc: dict[str, Any], path: Path, top: int = 4) -> Path | None:
    """PNG of median time against participating workers, one panel per
    taskloop, for the `top` most expensive; the chosen one is circled.
    Returns the path, or None when no taskloop has a measurement."""
    loops = [t for t in sorted(doc.get("taskloops", []), key=cost, reverse=True)
             if t.get("configs")][:top]
    if not loops:
        return None
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator
    fig, axes = plt.subplots(1, len(loops), figsize=(4 * len(loops), 3.6), squeeze=False)
    for ax, t in zip(axes[0], loops, strict=True):
        for steal, marker in (("strict", "o"), ("full", "s"), ("ws", "^")):
            cs = [c for c in t["configs"] if c["steal"] == steal and c.get("median_s")]
            if cs:
                ax.plot([c["workers"] for c in cs], [c["median_s"] * 1e3 for c in cs],
                        marker, label=steal)
        ch = t.get("chosen")
        if ch:
            m = next((c["median_s"] for c in t["configs"] if c["groups"] == ch["groups"]
                      and c["workers"] == ch["workers"] and c["steal"] == ch["steal"]), None)
            if m:
                ax.plot([ch["workers"]], [m * 1e3], "o", markersize=14, fillstyle="none",
                        color="black", label="chosen")
        ax.set_title("%s\n%d iterations, %d runs" % (t.get("symbol") or t.get("fn"),
                                                    t.get("iterations", 0),
                                                    t.get("executions", 0)), fontsize=8)
        ax.set_xlabel("participating workers")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("median time per execution (ms)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7)
    return save(fig, path)
