"""Summaries of benchmark runs (medians, spreads, ratios) and the table that shows them."""

import math
import statistics
from typing import Any

from .machine import NOISY

Row = dict[str, Any]   # a summary row (see summarise)

COLUMNS = ["kernel", "variant", "runtime", "unit", "median", "spread (min-max)",
           "/libgomp", "/libomp", "/static"]
# Runtimes outside OpenMP that run a kernel's reference program (kernels.Reference):
# when one is in a table, a column gives every row's ratio to its line.
REFERENCE_RUNTIMES = ("tbb",)

Key = tuple[str, str | None, str, int | None]   # kernel, variant, runtime, threads


def disturbed(run: dict[str, Any]) -> bool:
    """Whether the machine was busy during a run: other processes' CPU time
    or the hypervisor's steal time above NOISY of the machine while it ran.
    Runs shorter than 0.2 s are below the kernel's tick accounting and get
    no verdict (nor do runs saved before these fields existed)."""
    seconds, foreign, steal = (float(run.get(k) or 0) for k in ("seconds", "foreign_cpu", "steal"))
    return seconds >= 0.2 and (foreign > NOISY or steal > NOISY)


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b when both are positive, else None (a ratio would mean nothing)."""
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return a / b


def resolved(row: Row) -> bool:
    """Whether a row's figure is a result: its runs' spread stays above
    zero.  An overhead (test minus reference) whose runs reach zero or
    below is smaller than what this machine can tell apart from nothing;
    it gets no ratio, and the table marks it."""
    return row["status"] == "ok" and row["min"] is not None and row["min"] > 0


def summarise(runs: list[dict[str, Any]]) -> list[Row]:
    """One summary row per (kernel, variant, runtime, threads), in the order
    the runs came: the values of its runs, their median, min and max, FAILED
    if any run failed (with the first reason), and ratios of the median to
    the same row on libgomp and on libomp, to the kernel's `omp for
    schedule(static)` row (libgomp's if several runtimes ran it) and to its
    reference program's row (ratio_tbb), all at the same thread count.
    A row whose spread reaches zero (`resolved` false) has no ratios and
    is no divisor of others."""
    rows: dict[Key, Row] = {}
    for run in runs:
        ms = run["measurements"] if run["status"] == "ok" else (
            run["measurements"] or [{"variant": run["variant"], "unit": None, "value": None}])
        for m in ms:
            key = (run["kernel"], m["variant"], run["runtime"], run.get("threads"))
            row = rows.setdefault(key, {"kernel": key[0], "variant": key[1], "runtime": key[2],
                                        "threads": key[3], "unit": m["unit"], "values": [],
                                        "status": "ok", "reason": None, "disturbed": 0})
            row["unit"] = row["unit"] or m["unit"]
            if run["status"] == "ok" and disturbed(run):
                row["disturbed"] += 1
            if run["status"] != "ok":
                row["status"], row["reason"] = "FAILED", row["reason"] or run["reason"]
            elif m["value"] is not None:
                row["values"].append(m["value"])
    for row in rows.values():
        v = row["values"]
        row["median"] = statistics.median(v) if v and row["status"] == "ok" else None
        row["min"] = min(v) if v else None
        row["max"] = max(v) if v else None
        row["resolved"] = resolved(row)

    def median_of(kernel: str, variant: str | None, runtime: str, threads: int | None) -> float | None:
        r = rows.get((kernel, variant, runtime, threads))
        return r["median"] if r and r["resolved"] else None

    def first(i: int) -> dict[Any, int]:
        seen = list(dict.fromkeys(key[i] for key in rows))
        return {x: n for n, x in enumerate(seen)}
    # kernel, then thread count, then variant, then runtime, each in the order first seen
    order = [first(0), first(3), first(1), first(2)]
    rows = {key: rows[key] for key in sorted(
        rows, key=lambda key: (order[0][key[0]], order[1][key[3]], order[2][key[1]],
                               order[3][key[2]]))}
    for (k, v, _, t), row in rows.items():
        if not row["resolved"]:
            for name in ("libgomp", "libomp", "static") + REFERENCE_RUNTIMES:
                row["ratio_" + name] = None
            continue
        row["ratio_libgomp"] = ratio(row["median"], median_of(k, v, "libgomp", t))
        row["ratio_libomp"] = ratio(row["median"], median_of(k, v, "libomp", t))
        static = median_of(k, "static", "libgomp", t) or next(
            (r["median"] for (k2, v2, _, t2), r in rows.items() if k2 == k and v2 == "static"
             and t2 == t and r["median"]), None)
        row["ratio_static"] = ratio(row["median"], static)
        for ref in REFERENCE_RUNTIMES:
            row["ratio_" + ref] = ratio(row["median"], median_of(k, v, ref, t))
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


def cells(row: Row, references: list[str]) -> list[str]:
    """The table cells of one summary row, from its unit on."""
    ratios = ["ratio_libgomp", "ratio_libomp", "ratio_static"] + ["ratio_" + r for r in references]
    if row["status"] != "ok":
        return ["ms" if row["unit"] == "s" else row["unit"] or "", "FAILED", ""] + [""] * len(ratios)
    scale, unit = (1e3, "ms") if row["unit"] == "s" else (1, row["unit"])
    med, lo, hi = (None if x is None else x * scale for x in (row["median"], row["min"], row["max"]))
    spread = "%s-%s" % (fmt(lo), fmt(hi))
    # Beside the figure: how many of its runs the machine was busy during.
    busy = row.get("disturbed", 0)
    shown = fmt(med) + ("" if row.get("resolved", True) else " (n.s.)")
    shown += " (busy %d/%d)" % (busy, len(row["values"])) if busy else ""
    return [unit, shown, spread] + [
        "%.2f" % row[k] if row.get(k) is not None else "-" for k in ratios]


def disturbance_note(runs: list[dict[str, Any]]) -> str:
    """One line: how many runs were disturbed (the machine busy), or none."""
    ok = [r for r in runs if r["status"] == "ok"]
    bad = sum(1 for r in ok if disturbed(r))
    if not bad:
        return "machine quiet: no run disturbed by other load (above %d%% of the CPU time)" % (
            NOISY * 100)
    return ("machine busy: %d of %d runs disturbed (other processes or steal time above %d%% of "
            "the CPU time while they ran; marked 'busy k/n' beside the medians they affect)%s"
            % (bad, len(ok), NOISY * 100,
               ": these figures are not trustworthy" if bad * 4 > len(ok) else ""))


def render(summary: list[Row], skipped: dict[str, str] | None = None, markdown: bool = False) -> str:
    """The table: one line per (kernel, variant, runtime); the kernel name
    only on its first line.  When the rows have several thread counts, a
    `threads` column after the kernel groups each kernel's lines by thread
    count (the count on the group's first line).  When a reference program
    ran (oneTBB for fib), a column divides by its line.  Failures and
    skipped runtimes are listed below."""
    several = len({row.get("threads") for row in summary}) > 1
    refs = [r for r in REFERENCE_RUNTIMES if any(row["runtime"] == r for row in summary)]
    columns = COLUMNS[:1] + (["threads"] if several else []) + COLUMNS[1:] + ["/" + r for r in refs]
    left = 5 if several else 4   # columns aligned left (text), the others right (numbers)
    body: list[list[str]] = []
    last_kernel, last_group = None, None
    for row in summary:
        group = (row["kernel"], row.get("threads"))
        name = row["kernel"] if row["kernel"] != last_kernel else ""
        count = str(row.get("threads")) if group != last_group else ""
        last_kernel, last_group = row["kernel"], group
        body.append([name] + ([count] if several else []) + [row["variant"] or "", row["runtime"]]
                    + cells(row, refs))
    foot = ["%s: %s" % (rt, note) for rt, note in (skipped or {}).items()]
    foot += ["FAILED %s %s on %s%s: %s" % (
        r["kernel"], r["variant"], r["runtime"],
        ", %s threads" % r.get("threads") if several else "", r["reason"])
        for r in summary if r["status"] != "ok"]
    if markdown:
        lines = ["| " + " | ".join(columns) + " |",
                 "|" + "---|" * left + "---:|" * (len(columns) - left)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
        return "\n".join(lines + ([""] + foot if foot else []))
    widths = [max(len(r[i]) for r in [columns] + body) for i in range(len(columns))]
    lines = ["  ".join(c.ljust(w) if i < left else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
             for r in [columns] + body]
    return "\n".join(lines + foot)


def median_interval(xs: list[float]) -> tuple[float | None, float | None]:
    """A distribution-free 95 % confidence interval for the median of xs:
    the k-th smallest and k-th largest values, k the largest rank with
    P(Binomial(n, 1/2) < k) <= 2.5 %; (None, None) below 6 values, where
    no such k exists."""
    v, n = sorted(xs), len(xs)
    k, tail = 0, 0.0
    while k < n:
        nxt = tail + math.comb(n, k) / 2.0 ** n
        if nxt > 0.025:
            break
        tail, k = nxt, k + 1
    if k == 0:
        return None, None
    return v[k - 1], v[n - k]


def side(spec: str) -> tuple[str, str | None]:
    """A --pair side: RUNTIME or RUNTIME@VARIANT."""
    runtime, _, variant = spec.partition("@")
    return runtime, variant or None


def paired(runs: list[dict[str, Any]], a: str, b: str) -> list[Row]:
    """Side a against side b, round by round. A side is a runtime, or
    RUNTIME@VARIANT (a variant of each kernel on that runtime: an engine or
    schedule against another's; a plain runtime facing one means the same
    variant on it). For each (kernel, variant, threads) both ran (each
    (kernel, threads) when a side names a variant), the ratio a / b of the
    two runs of each round (close in time: runtimes are innermost in a
    round, variants next; every other round runs in reverse order), their
    median and its 95 % interval (median_interval). A VM's slow phases move
    both runs of a round together, so the ratios vary far less than either side's times: a
    difference of a few per cent that medians of the times cannot tell
    from noise can be told from the ratios. Rows come in the order of the
    runs; a round where either run failed or has no value is left out."""
    (ra, va), (rb, vb) = side(a), side(b)
    # One side naming a variant: the other side's runtime runs the same one
    # (else every variant of it would land on one value per round).
    va, vb = va or vb, vb or va
    by_variant = va is not None
    values: dict[tuple[str, str | None, int | None], dict[str, dict[int, float]]] = {}
    for run in runs:
        if run["status"] != "ok":
            continue
        for m in run["measurements"]:
            if m["value"] is None or m["value"] <= 0:
                continue
            for name, rt, v in (("a", ra, va), ("b", rb, vb)):
                if run["runtime"] == rt and (v is None or m["variant"] == v):
                    key = (run["kernel"], None if by_variant else m["variant"], run.get("threads"))
                    values.setdefault(key, {"a": {}, "b": {}})[name][run.get("round", 0)] = m["value"]
    rows: list[Row] = []
    for (kernel, variant, threads), by in values.items():
        rounds = sorted(set(by["a"]) & set(by["b"]))
        if not rounds:
            continue
        ratios = [by["a"][r] / by["b"][r] for r in rounds]
        lo, hi = median_interval(ratios)
        rows.append({"kernel": kernel, "variant": variant, "threads": threads, "a": a, "b": b,
                     "ratios": ratios, "median": statistics.median(ratios), "lo": lo, "hi": hi})
    return rows


def render_paired(rows: list[Row], markdown: bool = False) -> str:
    """The paired table: kernel, variant, threads, a / b median and its 95 % interval, rounds."""
    if not rows:
        return ""
    name = "%s / %s" % (rows[0]["a"], rows[0]["b"])
    columns = ["kernel", "variant", "threads", name, "95% interval", "rounds"]
    body = [[r["kernel"], r["variant"] or "", str(r["threads"] or ""), "%.3f" % r["median"],
             "%.3f-%.3f" % (r["lo"], r["hi"]) if r["lo"] is not None else "- (under 6 rounds)",
             str(len(r["ratios"]))] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(columns) + " |", "|---|---|---:|---:|---:|---:|"]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])
    widths = [max(len(r[i]) for r in [columns] + body) for i in range(len(columns))]
    return "\n".join("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
                     for r in [columns] + body)


LEGEND = ("median of the runs' times (lower is better; overhead rows: us per construct, task or "
          "loop); /libgomp, /libomp: median / the same row's median on that runtime (below 1 = "
          "faster); /static: median / the kernel's `omp for schedule(static)` time on libgomp; "
          "/tbb: median / the same recursion on oneTBB (fib, uts); ratios at the same thread count; "
          "n.s.: the runs' spread reaches zero, so the cost is below what this machine resolves "
          "(not a result, no ratio)")
