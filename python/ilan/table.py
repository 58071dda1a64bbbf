"""Summaries of benchmark runs (medians, spreads, ratios) and the table that shows them."""

import statistics
from typing import Any

Row = dict[str, Any]   # a summary row (see summarise)

COLUMNS = ["kernel", "variant", "runtime", "unit", "median", "spread (min-max)",
           "/libgomp", "/libomp", "/static"]


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b when both are positive, else None (a ratio would mean nothing)."""
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return a / b


def summarise(runs: list[dict[str, Any]]) -> list[Row]:
    """One summary row per (kernel, variant, runtime), in the order the runs
    came: the values of its runs, their median, min and max, FAILED if any
    run failed (with the first reason), and ratios of the median to the
    same row on libgomp and on libomp, and to the kernel's `omp for
    schedule(static)` row (libgomp's if several runtimes ran it)."""
    rows: dict[tuple[str, str | None, str], Row] = {}
    for run in runs:
        ms = run["measurements"] if run["status"] == "ok" else (
            run["measurements"] or [{"variant": run["variant"], "unit": None, "value": None}])
        for m in ms:
            key = (run["kernel"], m["variant"], run["runtime"])
            row = rows.setdefault(key, {"kernel": key[0], "variant": key[1], "runtime": key[2],
                                        "unit": m["unit"], "values": [], "status": "ok",
                                        "reason": None})
            row["unit"] = row["unit"] or m["unit"]
            if run["status"] != "ok":
                row["status"], row["reason"] = "FAILED", row["reason"] or run["reason"]
            elif m["value"] is not None:
                row["values"].append(m["value"])
    for row in rows.values():
        v = row["values"]
        row["median"] = statistics.median(v) if v and row["status"] == "ok" else None
        row["min"] = min(v) if v else None
        row["max"] = max(v) if v else None

    def median_of(kernel: str, variant: str | None, runtime: str) -> float | None:
        r = rows.get((kernel, variant, runtime))
        return r["median"] if r else None

    def first(i: int) -> dict[Any, int]:
        seen = list(dict.fromkeys(key[i] for key in rows))
        return {x: n for n, x in enumerate(seen)}
    order = [first(0), first(1), first(2)]
    rows = {key: rows[key] for key in sorted(
        rows, key=lambda key: tuple(o[x] for o, x in zip(order, key, strict=True)))}
    for (k, v, _), row in rows.items():
        row["ratio_libgomp"] = ratio(row["median"], median_of(k, v, "libgomp"))
        row["ratio_libomp"] = ratio(row["median"], median_of(k, v, "libomp"))
        static = median_of(k, "static", "libgomp") or next(
            (r["median"] for (k2, v2, _), r in rows.items() if k2 == k and v2 == "static"
             and r["median"]), None)
        row["ratio_static"] = ratio(row["median"], static)
    return list(rows.values())


def fmt(x: float | None) -> str:
    """A number with about three significant digits."""
    if x is None:
        return "-"
    if abs(x) >= 100:
        return "%.0f" % x
    if abs(x) >= 10:
        return "%.1f" % x
    if abs(x) >= 1:
        return "%.2f" % x
    return "%.3g" % x


def cells(row: Row) -> list[str]:
    """The table cells of one summary row."""
    if row["status"] != "ok":
        return ["ms" if row["unit"] == "s" else row["unit"] or "", "FAILED", "", "", "", ""]
    scale, unit = (1e3, "ms") if row["unit"] == "s" else (1, row["unit"])
    med, lo, hi = (None if x is None else x * scale for x in (row["median"], row["min"], row["max"]))
    spread = "%s-%s" % (fmt(lo), fmt(hi))
    return [unit, fmt(med), spread] + [
        "%.2f" % row[k] if row[k] is not None else "-"
        for k in ("ratio_libgomp", "ratio_libomp", "ratio_static")]


def render(summary: list[Row], skipped: dict[str, str] | None = None, markdown: bool = False) -> str:
    """The table: one line per (kernel, variant, runtime); the kernel name
    only on its first line.  Failures and skipped runtimes are listed below."""
    body, last = [], None
    for row in summary:
        name = row["kernel"] if row["kernel"] != last else ""
        last = row["kernel"]
        body.append([name, row["variant"] or "", row["runtime"]] + cells(row))
    foot = ["%s: %s" % (rt, note) for rt, note in (skipped or {}).items()]
    foot += ["FAILED %s %s on %s: %s" % (r["kernel"], r["variant"], r["runtime"], r["reason"])
             for r in summary if r["status"] != "ok"]
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |", "|---|---|---|---|" + "---:|" * 5]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
        return "\n".join(lines + ([""] + foot if foot else []))
    widths = [max(len(r[i]) for r in [COLUMNS] + body) for i in range(len(COLUMNS))]
    lines = ["  ".join(c.ljust(w) if i < 4 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
             for r in [COLUMNS] + body]
    return "\n".join(lines + foot)


LEGEND = ("median of the runs' times (lower is better; overhead rows: us per construct or loop); "
          "/libgomp, /libomp: median / the same row's median on that runtime (below 1 = "
          "faster); /static: median / the kernel's `omp for schedule(static)` time on libgomp")
