"""The JSON file an `ilan bench` run writes: its content, its name, and a check of its shape."""

import datetime
import json
import os
from pathlib import Path
from typing import Any

from .machine import library_files, machine_info
from .runtimes import Runtime

Doc = dict[str, Any]   # a result document (JSON object)

SCHEMA = "ilan-bench/1"
ENV_PREFIXES = ("OMP_", "GOMP_", "KMP_", "LIBOMP_", "ILAN_", "HWLOC_")


def make(command: str, options: dict[str, Any], runtimes: list[Runtime], skipped: dict[str, str],
         runs: list[dict[str, Any]], summary: list[dict[str, Any]]) -> Doc:
    """The result document of one bench run."""
    now = datetime.datetime.now()
    return {
        "schema": SCHEMA,
        "date": now.isoformat(timespec="seconds"),
        "command": command,
        "options": options,
        "machine": machine_info(),
        "environment": {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)},
        "libraries": library_files(),
        "runtimes": {rt.name: {"family": rt.family, "env": rt.env} for rt in runtimes},
        "skipped": skipped,
        "runs": runs,
        "summary": summary,
    }


def default_stem(out_dir: Path, host: str) -> Path:
    """<out_dir>/bench-<date>-<host>, the name of a run's JSON and PNG without suffix."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(out_dir) / ("bench-%s-%s" % (stamp, host))


def save(doc: Doc, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return path


# field -> type(s) of the summary rows and run records
FieldTypes = dict[str, type | tuple[type, ...]]
SUMMARY_FIELDS: FieldTypes = {"kernel": str, "variant": (str, type(None)), "runtime": str,
                  "unit": (str, type(None)), "values": list, "status": str,
                  "median": (float, int, type(None)), "min": (float, int, type(None)),
                  "max": (float, int, type(None)), "ratio_libgomp": (float, type(None)),
                  "ratio_libomp": (float, type(None)), "ratio_static": (float, type(None))}
RUN_FIELDS: FieldTypes = {"kernel": str, "variant": (str, type(None)), "runtime": str, "threads": int,
              "argv": list, "status": str, "measurements": list, "round": int}
TOP_FIELDS: FieldTypes = {"schema": str, "date": str, "command": str, "options": dict, "machine": dict,
              "environment": dict, "libraries": dict, "runtimes": dict, "skipped": dict,
              "runs": list, "summary": list}


def problems(doc: Any) -> list[str]:
    """What is wrong with a result document's shape ([] when nothing)."""
    out: list[str] = []

    def check(obj: dict[str, Any], fields: FieldTypes, where: str) -> None:
        for k, t in fields.items():
            if k not in obj:
                out.append("%s: missing %r" % (where, k))
            elif not isinstance(obj[k], t):
                out.append("%s: %r is %s" % (where, k, type(obj[k]).__name__))

    if not isinstance(doc, dict):
        return ["not a JSON object"]
    check(doc, TOP_FIELDS, "top")
    if doc.get("schema") != SCHEMA:
        out.append("top: schema is %r, not %r" % (doc.get("schema"), SCHEMA))
    for i, r in enumerate(doc.get("runs") or []):
        check(r, RUN_FIELDS, "runs[%d]" % i)
        if r.get("status") not in ("ok", "failed"):
            out.append("runs[%d]: status %r" % (i, r.get("status")))
    for i, r in enumerate(doc.get("summary") or []):
        check(r, SUMMARY_FIELDS, "summary[%d]" % i)
        if r.get("status") not in ("ok", "FAILED"):
            out.append("summary[%d]: status %r" % (i, r.get("status")))
    return out
