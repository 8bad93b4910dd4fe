"""Medians over several harness reports (``harness.py --json FILE``), as markdown tables.

.venv/bin/python benchmarks/load/summarise.py run1.json run2.json run3.json
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def median(values: list[float]) -> str:
    values = [v for v in values if isinstance(v, int | float)]
    if not values:
        return ""
    spread = f" ({min(values):g}-{max(values):g})" if len(values) > 1 else ""
    return f"{statistics.median(values):g}{spread}"


def main(paths: list[str]) -> None:
    reports: list[dict[str, Any]] = [json.loads(Path(p).read_text()) for p in paths]
    print(f"{len(reports)} runs; medians (min-max)\n")
    print("load average (1 min) at the start / end of burst / end: " + "; ".join(
        f"{r['loadavg']['start'][0]} / {r['loadavg'].get('end of burst', ['?'])[0]} / "
        f"{r['loadavg'].get('end', ['?'])[0]}"
        for r in reports
    ))  # fmt: skip
    print()
    burst: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in reports:
        for row in r["burst"]:
            for key in ("req_s", "p50_ms", "p95_ms", "p99_ms"):
                burst[row["kind"]][key].append(row[key])
    print("| burst request | req/s | p50 ms | p95 ms | p99 ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, m in sorted(burst.items()):
        print(
            f"| {kind} | {median(m['req_s'])} | {median(m['p50_ms'])} | "
            f"{median(m['p95_ms'])} | {median(m['p99_ms'])} |"
        )
    print()
    lat = [r["result_to_public"] for r in reports]
    print(
        f"result to public standings: p50 {median([x['p50_s'] for x in lat])} s, "
        f"p95 {median([x['p95_s'] for x in lat])} s"
    )
    cal = [r.get("calibration") or {} for r in reports]
    keys = sorted({k for c in cal for k in c if k != "tables"})
    if keys:
        print(
            "calibration (quiet server, one table at a time): "
            + ", ".join(f"{k} {median([c[k] for c in cal if k in c])}" for k in keys)
        )
    print()
    capacity: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in reports:
        for row in r.get("capacity") or []:
            for key in ("req_s", "ratio", "server_cpu_ms", "server_cores", "p50_ms", "p99_ms"):
                if key in row:
                    capacity[row["kind"]][key].append(row[key])
    if capacity:
        print(
            "| capacity | req/s | vs static | server CPU ms/req | server cores | p50 ms | p99 ms |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for kind, m in capacity.items():
            print(
                f"| {kind} | {median(m['req_s'])} | {median(m['ratio'])} | "
                f"{median(m['server_cpu_ms'])} | {median(m['server_cores'])} | "
                f"{median(m['p50_ms'])} | {median(m['p99_ms'])} |"
            )
    print()
    for r in reports:
        if "burst_cpu_seconds" in r:
            print(
                f"- {r['slug']}: CPU seconds in the {r['burst_seconds']:.0f} s burst "
                f"{r['burst_cpu_seconds']}"
            )
    for r in reports:
        v = r["verification"]
        faults = [f"{f['fault']}@{f.get('at_s')}" for f in r["faults"]]
        print(
            f"- {r['slug']}: verification {'passed' if v['ok'] else 'FAILED'} after "
            f"{v['seconds']} s; faults {faults or 'none'}; "
            f"restarts {r['restarts']}; log findings {r.get('log_findings') or 'none'}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
