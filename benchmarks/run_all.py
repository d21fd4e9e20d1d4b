"""The benchmark suite: runs every benchmark present, repeats the quick ones and
takes medians, and writes one summary (markdown + JSON with machine info) of
every target of the speed brief, next to the peers, to benchmarks/results/.

    .venv/bin/python benchmarks/run_all.py [--repeat 3] [--million] [--quick]
        [--only scan write ...] [--skip http ...]

- Quick benchmarks (scan, write, chunk) run `--repeat` times; the summary quotes
  the median of the runs, cell by cell (their own .md files show the last run).
  The others repeat inside (peers: rounds; rollback, growth: one large build).
- `--million` adds the 1M-event growth line (and the 1M verify of bench_rollback):
  the builds take several minutes; without it, the last saved 1M line is kept
  and marked as such.
- `--quick`: small inputs everywhere, to check the suite runs (numbers are not
  comparable with a full run); its files go to results/quick/ and the saved
  full-run files are left as they were.
- Benchmarks owned by other parts (bench_graph, bench_http, bench_langgraph,
  bench_recall) run
  when present, with their defaults.

Inputs come from the seeded corpus generator (corpus_gen.py), never the test data.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


@dataclass(frozen=True)
class Bench:
    name: str
    script: str
    stems: tuple[str, ...]
    """Result files (results/<stem>.json) the script writes."""
    args: tuple[str, ...] = ()
    quick_args: tuple[str, ...] = ()
    repeat: bool = False
    million_args: tuple[str, ...] = ()
    variants: tuple[tuple[str, ...], ...] = field(default=((),))
    """Extra runs with different arguments (each writes its own stem)."""


BENCHES = (
    # one pass per run: the suite's runs are the repeats
    Bench(
        "scan",
        "bench_scan.py",
        ("scan",),
        ("--repeat", "1"),
        ("--n", "30", "--peer-n", "5", "--repeat", "1"),
        repeat=True,
    ),
    Bench(
        "write",
        "bench_write.py",
        ("write", "write_prose"),
        (),
        ("--n", "200", "--reads", "100"),
        repeat=True,
        variants=((), ("--kind", "prose", "--out", "write_prose")),
    ),
    Bench("chunk", "bench_chunk.py", ("chunk",), (), ("--n", "10", "--repeat", "3"), repeat=True),
    Bench(
        "peers", "bench_peers.py", ("peers",), (), ("--n", "200", "--reads", "100", "--repeat", "1")
    ),
    Bench(
        "footprint",
        "bench_footprint.py",
        ("footprint",),
        (),
        ("--n", "5000", "--gateway-n", "1000"),
    ),
    Bench(
        "rollback",
        "bench_rollback.py",
        ("rollback",),
        (),
        ("--sizes", "2000", "10000"),
        million_args=("--million",),
    ),
    Bench(
        "growth",
        "bench_growth.py",
        ("growth",),
        (),
        ("--sizes", "1000", "5000", "--writes", "50", "--reads", "50"),
        million_args=("--million",),
    ),
    # its default (100k read edges) in the suite; its own 1M run (results/graph.json,
    # `bench_graph.py --edges 1000000`) is quoted beside it when present
    Bench("graph", "bench_graph.py", ("graph-suite",), ("--tag", "suite"), ("--tag", "suite")),
    Bench(
        "http",
        "bench_http.py",
        ("http", "http_nograph"),
        (),
        ("--duration", "3"),
        variants=((), ("--graph", "none", "--out", "http_nograph")),
    ),
    Bench("verify", "bench_verify.py", ("verify",), (), ("--events", "5000", "--new", "200")),
    # needs PostgreSQL, Redis (and starts a FalkorDB server): replicas 1, 2, 4 + SQLite
    Bench(
        "scale",
        "bench_scale.py",
        ("scale",),
        ("--duration", "10"),
        ("--duration", "2", "--replicas", "1", "2"),
    ),
    Bench("langgraph", "bench_langgraph.py", ("langgraph",), (), ("--n", "200")),
    Bench("recall", "bench_recall.py", ("recall",), (), ("--n", "5000", "--queries", "50")),
)


# -- running -------------------------------------------------------------------------


def _run(bench: Bench, extra: tuple[str, ...], log: Path) -> tuple[int, float]:
    cmd = [sys.executable, str(HERE / bench.script), *extra]
    print(f"$ {' '.join(cmd[1:])}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.run(cmd, stdout=out, stderr=out, cwd=HERE.parent, check=False)
    return proc.returncode, time.perf_counter() - t0


def _scale_lines(scale: dict[str, Any]) -> list[Line]:
    """bench_scale: per-replica durable writes/s on PostgreSQL and the 1 -> 2 ratio."""
    lines: list[Line] = []
    cells = {(c["store"], c["replicas"]): c for c in scale.get("cells", [])}
    for (store, n), c in sorted(cells.items()):
        checked = (
            "chain verified, counts matched" if c["verified"] and c["matched"] else "CHECK FAILED"
        )
        lines.append(
            Line(
                f"durable writes over HTTP, {store}, {n} replica(s), per replica",
                "≥ 800/s" if store == "postgres" else "(reported)",
                round(c["per_replica"]),
                "writes/s",
                _check(c["per_replica"], lambda x: x >= 800) if store == "postgres" else None,
                f"total {c['writes_per_s']:.0f}/s, p50 {c['p50_ms']:.1f} ms, "
                f"p99 {c['p99_ms']:.1f} ms; {checked}",
            )
        )
    one, two = cells.get(("postgres", 1)), cells.get(("postgres", 2))
    if one and two and one["writes_per_s"]:
        v = round(two["writes_per_s"] / one["writes_per_s"], 2)
        lines.append(
            Line("replicas 1 -> 2, PostgreSQL", "≥ 1.6x", v, "x", _check(v, lambda x: x >= 1.6))
        )
    return lines


def _load(stem: str) -> Any:
    path = RESULTS / f"{stem}.json"
    return json.loads(path.read_text()) if path.exists() else None


def merge(values: list[Any]) -> Any:
    """Median of same-shaped JSON values, cell by cell (non-numbers: the last)."""
    first = values[-1]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return statistics.median(values)
    if all(isinstance(v, dict) for v in values):
        return {k: merge([v[k] for v in values if k in v]) for k in first}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [merge([v[i] for v in values]) for i in range(len(first))]
    return first


def run_suite(args: argparse.Namespace, log: Path) -> dict[str, Any]:
    ran: dict[str, Any] = {}
    for bench in BENCHES:
        if (args.only and bench.name not in args.only) or bench.name in args.skip:
            continue
        if not (HERE / bench.script).exists():
            ran[bench.name] = {"status": "absent"}
            continue
        runs = args.repeat if bench.repeat else 1
        base = bench.quick_args if args.quick else bench.args
        if args.million and not args.quick:
            base = (*base, *bench.million_args)
        info: dict[str, Any] = {"runs": runs, "seconds": 0.0, "status": "ok", "data": {}}
        for variant in bench.variants:
            collected: dict[str, list[Any]] = {}
            for _ in range(runs):
                code, seconds = _run(bench, (*base, *variant), log)
                info["seconds"] += seconds
                if code != 0:
                    info["status"] = f"failed (exit {code}, see {log.name})"
                    break
                for stem in bench.stems:
                    data = _load(stem)
                    if data is not None:
                        collected.setdefault(stem, []).append(data)
            for stem, values in collected.items():
                info["data"][stem] = merge(values)
        ran[bench.name] = info
        print(f"  {bench.name}: {info['status']} in {info['seconds']:.0f} s", file=sys.stderr)
    return ran


# -- the summary -----------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    metric: str
    target: str
    value: float | None
    unit: str
    ok: bool | None
    note: str = ""


def _row(rows: list[dict[str, Any]], **match: Any) -> dict[str, Any] | None:
    for r in rows:
        if all(r.get(k) == v for k, v in match.items()):
            return r
    return None


def _check(value: float | None, test: Callable[[float], bool]) -> bool | None:
    return None if value is None else test(value)


def targets(data: dict[str, Any]) -> list[Line]:
    lines: list[Line] = []
    scan = data.get("scan")
    if scan:
        r = _row(scan["rows"], kind="mixed", size=2048)
        if r:
            v = r["median_ms"]
            lines.append(
                Line("scan 2 KB mixed, median", "≤ 0.5 ms", v, "ms", _check(v, lambda x: x <= 0.5))
            )
            if "ratio" in r:
                lines.append(
                    Line(
                        "  vs detect-secrets + bandit",
                        "≥ 10× faster",
                        r["ratio"],
                        "× faster",
                        _check(r["ratio"], lambda x: x >= 10),
                        f"peer median {r['peer_median_ms']:.2f} ms",
                    )
                )
            if "amg_ratio" in r:
                lines.append(
                    Line(
                        "  vs agent-memory-guard scan",
                        "(reported)",
                        r["amg_ratio"],
                        "× faster",
                        None,
                        f"peer median {r['amg_median_ms']:.3f} ms; flagged: memgate"
                        f" {r.get('flagged_pct')} %, amg {r.get('amg_flagged_pct')} %",
                    )
                )
    for stem, content in (("write", "mixed"), ("write_prose", "prose")):
        write = data.get(stem)
        if not write:
            continue
        for writers in (1, 16):
            for target in ("long", "short"):
                r = _row(write["rows"], writers=writers, target=target)
                if r:
                    v = r["writes_per_s"]
                    # the targets: 2,000/s for one writer, 3,000/s for 16
                    floor = 2000 if writers == 1 else 3000
                    lines.append(
                        Line(
                            f"durable writes in-process, 1 KB {content}, {writers} writer(s),"
                            f" {target}-term",
                            f"≥ {floor:,}/s",
                            v,
                            "writes/s",
                            _check(v, lambda x, floor=floor: x >= floor),
                            f"median {r['median_ms']} ms, p99 {r['p99_ms']} ms{_peer_writes(data)}",
                        )
                    )
        if stem != "write":
            continue
        reads = write["reads"]
        v = reads["short_read_median_ms"]
        lines.append(Line("short read, median", "≤ 0.1 ms", v, "ms", _check(v, lambda x: x <= 0.1)))
        v = reads["long_get_median_ms"]
        lines.append(Line("long get, median", "≤ 0.5 ms", v, "ms", _check(v, lambda x: x <= 0.5)))
        v = reads["search_median_ms"]
        lines.append(Line("search, prefix + one word, limit 10", "(reported)", v, "ms", None))
    for stem, label in (("http", "graph embedded"), ("http_nograph", "no graph")):
        http = data.get(stem)
        if http:
            v = http["summary"].get("writes_per_s")
            lines.append(
                Line(
                    f"durable writes over HTTP ({label})",
                    "≥ 800/s",
                    v,
                    "writes/s",
                    _check(v, lambda x: x >= 800),
                    f"mixed load, p50 {http['summary'].get('p50_ms')} ms",
                )
            )
    scale = data.get("scale")
    if scale:
        lines += _scale_lines(scale)
    for stem in ("graph-suite", "graph"):
        graph = data.get(stem)
        if graph:
            lines += _graph_lines(graph)
    rollback = data.get("rollback")
    if rollback:
        r = _row(rollback["rows"], size=100_000, snapshots=True) or _row(
            rollback["rows"], size=100_000
        )
        if r:
            v = r["applied_s"]
            lines.append(
                Line(
                    "rollback 100k events, applied",
                    "≤ 2 s",
                    v,
                    "s",
                    _check(v, lambda x: x <= 2),
                    f"{r['changes']:,} memories reverted; dry run {r['dry_run_s']:.2f} s",
                )
            )
        v1m = rollback.get("verify_1m", {})
        if "measured_s" in v1m:
            v = v1m["measured_s"]
            lines.append(
                Line("verify 1M events", "≤ 5 s", v, "s", _check(v, lambda x: x <= 5), "measured")
            )
    growth = data.get("growth")
    if growth:
        r = _row(growth["rows"], size=1_000_000)
        if r:
            v = r["verify_s"]
            note = "growth line" + (", earlier run" if r.get("kept_from_earlier_run") else "")
            lines.append(
                Line("verify 1M events", "≤ 5 s", v, "s", _check(v, lambda x: x <= 5), note)
            )
    verify = data.get("verify")
    if verify:
        n = verify.get("events", 0)
        for r in verify.get("rows", []):
            what = r["what"]
            if what.startswith("incremental"):
                lines.append(
                    Line(
                        f"verify, {what}",
                        "O(new events)",
                        r["wall_s"],
                        "s",
                        None,
                        f"CPU {r['cpu_s']:.2f} s; {r['note']}; log of {n:,} events",
                    )
                )
            elif what.startswith("full verify") or what.endswith("(now)"):
                per = r["cpu_s"] / max(n, 1) * 1e6
                lines.append(
                    Line(
                        f"verify {n:,} events, {what}",
                        "(1M ≤ 5 s, loaded)",
                        r["wall_s"],
                        "s",
                        None,
                        f"CPU {r['cpu_s']:.2f} s = {per:.1f} µs/event, ~{per:.0f} CPU s per 1M;"
                        f" load {verify.get('load', ['?'])[0]:.1f}",
                    )
                )
    lg = data.get("langgraph")
    if lg:
        for name, res in lg.get("results", {}).items():
            if name.startswith("MemgateStore"):
                v = res.get("ratio_sqlite")
                lines.append(
                    Line(
                        f"LangGraph adapter put+get, {name}",
                        "≤ 2× SqliteStore",
                        v,
                        "× SqliteStore",
                        _check(v, lambda x: x <= 2),
                    )
                )
    recall = data.get("recall")
    if recall:
        table = recall["quality"]["table"]
        for lang in ("en", "zh"):
            if lang in table:
                v = table[lang]["vector"]["recall_at_5"]
                lines.append(
                    Line(
                        f"recall@5, vector, {lang} paraphrases",
                        "≥ 0.80",
                        v,
                        "",
                        _check(v, lambda x: x >= 0.80),
                        f"text {table[lang]['text']['recall_at_5']:.2f},"
                        f" hybrid {table[lang]['hybrid']['recall_at_5']:.2f}",
                    )
                )
        lat = recall.get("latency")
        if lat:
            v = lat["hybrid_ms"]["p95"]
            lines.append(
                Line(
                    f"hybrid search p95, {lat['memories_indexed']:,} memories",
                    "≤ 100 ms",
                    v,
                    "ms",
                    _check(v, lambda x: x <= 100),
                    "random vectors, real query embedding",
                )
            )
    fp = data.get("footprint")
    if fp:
        held_mb: dict[str, float] = {}
        for r in fp["rows"]:
            held = r["traced_bytes"] if r["traced_bytes"] is not None else r["rss_bytes"]
            held_mb[r["cell"]] = held * fp["target_entries"] / r["entries"] / 1e6
        peers = "; ".join(
            f"{c} {held_mb[c]:.0f} MB"
            for c in ("langgraph_memory", "agent_memory_guard")
            if c in held_mb
        )
        for r in fp["rows"]:
            mb = held_mb[r["cell"]]
            how = "tracemalloc" if r["traced_bytes"] is not None else "RSS, scaled"
            if r["cell"] == "memgate_short_pool":
                lines.append(
                    Line(
                        f"memory, {fp['target_entries']:,} short-term entries: {r['cell']}",
                        "≤ 80 MB",
                        mb,
                        "MB",
                        mb <= 80,
                        f"{how}; peers: {peers}" if peers else how,
                    )
                )
                continue
            lines.append(
                Line(
                    f"memory, {fp['target_entries']:,} short-term entries: {r['cell']}",
                    "reported",
                    mb,
                    "MB",
                    None,
                    how,
                )
            )
    return lines


def _peer_writes(data: dict[str, Any]) -> str:
    """The peers' sequential writes/s beside memgate's (bench_peers), if measured."""
    peers = data.get("peers")
    cells = peers.get("cells", {}) if isinstance(peers, dict) else {}
    found = [
        f"{name} {cells[name]['writes_per_s']:,.0f}/s"
        for name in ("langgraph_sqlite", "agent_memory_guard")
        if isinstance(cells.get(name), dict)
        and isinstance(cells[name].get("writes_per_s"), int | float)
    ]
    return f"; peers: {', '.join(found)}" if found else ""


def _graph_lines(graph: dict[str, Any]) -> list[Line]:
    """bench_graph's numbers (another part's benchmark: its JSON layout)."""
    edges = graph.get("counts", {}).get("reads", graph.get("args", {}).get("edges"))
    label = f"{edges:,} read edges" if isinstance(edges, int) else "graph"
    out = []
    v = graph.get("projection", {}).get("read_links_per_s")
    if isinstance(v, int | float):
        out.append(
            Line(f"graph links projected ({label})", "≥ 20,000/s", v, "links/s", v >= 20_000)
        )
    v = graph.get("read_latency", {}).get("overhead_pct")
    if isinstance(v, int | float):
        out.append(Line(f"read-path overhead of the graph ({label})", "≤ 5 %", v, "%", v <= 5))
    for name, res in graph.get("investigations", {}).items():
        if name.startswith("blast_radius d3") or name == "readers":
            v = res.get("p50_ms")
            if isinstance(v, int | float):
                out.append(Line(f"{name} p50 ({label})", "≤ 5 ms", v, "ms", v <= 5))
        if name.startswith("blast_radius d3"):
            v = res.get("p99_ms")
            if isinstance(v, int | float):
                out.append(Line(f"{name} p99 ({label})", "≤ 50 ms", v, "ms", v <= 50))
    load = graph.get("machine", {}).get("load_avg_1_5_15")
    if load and out:
        last = out[-1]
        out[-1] = Line(last.metric, last.target, last.value, last.unit, last.ok, f"load {load}")
    if not out:
        out.append(Line("graph", "see its .md", None, "", None, "no known keys"))
    return out


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.4f}"


def markdown(
    lines: list[Line], ran: dict[str, Any], info: dict[str, Any], args: Any, where: Path
) -> str:
    m = info["machine"]
    out = [
        "# memgate benchmark summary",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, load average {m['load_avg_1_5_15']} at the"
        f" end; Python {m['python']}, SQLite {m['sqlite']}; {m['platform']}.",
        f"Run: `{info['command']}`, {info['seconds']:.0f} s, finished {info['finished']}."
        f" Quick benchmarks repeated {args.repeat}×, medians quoted.",
        "",
        "| metric | target | measured | unit | met | note |",
        "|---|---|---|---|---|---|",
    ]
    for ln in lines:
        met = {True: "yes", False: "**no**", None: ""}[ln.ok]
        out.append(
            f"| {ln.metric} | {ln.target} | {_fmt(ln.value)} | {ln.unit} | {met} | {ln.note} |"
        )
    out += ["", "| benchmark | status | runs | seconds | details |", "|---|---|---|---|---|"]
    for name, r in ran.items():
        files = ", ".join(f"{s}.md" for s in r.get("data", {})) or "-"
        out.append(
            f"| {name} | {r['status']} | {r.get('runs', '-')} |"
            f" {_fmt(r.get('seconds'))} | {files} |"
        )
    for stem in ("peers", "growth"):
        path = where / f"{stem}.md"
        if path.exists() and stem in {s for r in ran.values() for s in r.get("data", {})}:
            body = path.read_text().split("\n", 1)[1].strip()
            out += ["", f"## {stem}", "", body]
    packages = ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v)
    out += ["", f"Packages: {packages}."]
    return "\n".join(out) + "\n"


def _add_earlier(ran: dict[str, Any], merged: dict[str, Any]) -> None:
    """With --only/--skip, the benchmarks not run now are quoted from earlier runs:
    the last summary's medians for the repeated ones, else their own files."""
    previous = _load("summary")
    earlier = previous.get("data", {}) if isinstance(previous, dict) else {}
    for bench in BENCHES:
        if bench.name in ran and ran[bench.name].get("status") != "absent":
            continue
        found = {}
        for stem in bench.stems:
            # repeated benchmarks: the summary holds their medians; the others'
            # own files may be newer (run alone since)
            data = earlier.get(stem) if bench.repeat else _load(stem)
            data = data if data is not None else earlier.get(stem, _load(stem))
            if data is not None:
                found[stem] = merged[stem] = data
        if found:
            ran[bench.name] = {"status": "earlier run", "runs": "-", "seconds": None, "data": found}


def _set_aside_quick(saved: Path) -> None:
    """Move what a quick run wrote to results/quick/; put the saved files back."""
    quick = RESULTS / "quick"
    quick.mkdir(exist_ok=True)
    for path in RESULTS.glob("*.*"):
        shutil.move(path, quick / path.name)
    for path in saved.iterdir():
        shutil.copy2(path, RESULTS / path.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--million", action="store_true")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", nargs="+", default=[])
    parser.add_argument("--skip", nargs="+", default=[])
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C, so a stopped quick run still restores the files
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    RESULTS.mkdir(exist_ok=True)
    saved = Path(tempfile.mkdtemp(prefix="memgate-bench-saved-"))
    if args.quick:
        for path in RESULTS.glob("*.*"):
            shutil.copy2(path, saved / path.name)
    log = RESULTS / "run_all.log"
    log.write_text("")
    started = time.perf_counter()
    try:
        ran = run_suite(args, log)
    finally:
        if args.quick:
            _set_aside_quick(saved)
        shutil.rmtree(saved, ignore_errors=True)
    merged = {stem: d for r in ran.values() for stem, d in r.get("data", {}).items()}
    if not args.quick:
        _add_earlier(ran, merged)
    if "graph" not in merged and _load("graph") is not None:
        merged["graph"] = _load("graph")  # bench_graph's own last run (1M edges), quoted
    out_dir = RESULTS / "quick" if args.quick else RESULTS
    lines = targets(merged)
    info = {
        "machine": machine(),
        "command": " ".join(["benchmarks/run_all.py", *sys.argv[1:]]),
        "seconds": time.perf_counter() - started,
        "finished": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "cpu_count": os.cpu_count(),
    }
    text = markdown(lines, ran, info, args, out_dir)
    print(text)
    (out_dir / "summary.md").write_text(text)
    summary = {
        **info,
        "args": vars(args),
        "targets": [ln.__dict__ for ln in lines],
        "benchmarks": {k: {kk: vv for kk, vv in v.items() if kk != "data"} for k, v in ran.items()},
        "data": merged,
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
