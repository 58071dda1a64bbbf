"""The bench bar chart: speedup per kernel against libomp's taskloop; and pyplot(), the one place matplotlib is imported."""

from pathlib import Path
from typing import Any

from . import IlanError

Row = dict[str, Any]   # a summary row of table.summarise


def pyplot() -> Any:
    """matplotlib.pyplot, headless. Imported here, when a chart is drawn, and
    not at start-up: it alone costs ilan --help about 0.35 s."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # headless: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise IlanError("matplotlib is not installed: pip install matplotlib, or "
                        "apt-get install python3-matplotlib") from None
    return plt


def save(fig: Any, path: Path) -> Path:
    """Lays out and writes a figure to path (PNG, 110 dpi), then frees it
    even when the write fails; returns path."""
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    finally:
        pyplot().close(fig)
    return path


def speedups(summary: list[Row], baseline: str = "libomp"
             ) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """{group: {label: speedup}} for the kernels (not the overhead rows):
    the baseline runtime's main-variant median divided by each runtime's,
    plus the `omp for static` reference; falls back to libgomp as baseline
    when the baseline has no time for a kernel.  A group is a kernel, or
    "kernel, N thr" when the runs had several thread counts (speedups are
    within one count).  Also returns the baseline used per group."""
    out: dict[str, dict[str, float]] = {}
    used: dict[str, str] = {}
    several = len({r.get("threads") for r in summary}) > 1
    for kernel, threads in dict.fromkeys((r["kernel"], r.get("threads")) for r in summary):
        rows = [r for r in summary if r["kernel"] == kernel and r.get("threads") == threads
                and r["unit"] == "s"]
        group = "%s, %s thr" % (kernel, threads) if several else kernel
        main = [r for r in rows if r["variant"] in ("taskloop", "task")]
        if not main:
            continue
        base = {r["runtime"]: r["median"] for r in main if r["median"]}
        name = baseline if baseline in base else "libgomp" if "libgomp" in base else None
        if name is None:
            continue
        used[group] = name
        bars = {r["runtime"]: base[name] / r["median"] if r["median"] else 0.0 for r in main}
        for r in rows:
            if r["variant"] == "static" and r["median"] and r["runtime"] == "libgomp":
                bars["omp for static (libgomp)"] = base[name] / r["median"]
        out[group] = bars
    return out, used


def draw(summary: list[Row], path: Path, title: str) -> Path | None:
    """Write the chart to `path` (PNG); returns the path, or None when there
    is no kernel to draw."""
    data, used = speedups(summary)
    if not data:
        return None
    plt = pyplot()
    labels = list(dict.fromkeys(l for bars in data.values() for l in bars))
    kernels = list(data)
    width = 0.8 / len(labels)
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(kernels) + 2), 4.5))
    for i, label in enumerate(labels):
        xs = [k + (i - (len(labels) - 1) / 2) * width for k in range(len(kernels))]
        ax.bar(xs, [data[k].get(label, 0.0) for k in kernels], width, label=label,
               hatch="//" if label.startswith("omp for") else None)
    ax.axhline(1.0, color="black", linewidth=0.8)
    values = [x for bars in data.values() for x in bars.values() if x > 0]
    if values and max(values) / min(values) > 20:
        ax.set_yscale("log")   # keep small differences visible next to large ones
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(kernels, rotation=30, ha="right")
    bases = set(used.values())
    ax.set_ylabel("speedup over %s taskloop" % "/".join(sorted(bases)))
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, ncol=3)
    return save(fig, path)
