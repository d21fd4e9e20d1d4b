"""Scan latency: median and p99 per memory at 0.5/2/4/16 KB for prose, code-heavy
and mixed inputs, items/s, and (when the `bench` extra is installed) the same
inputs through detect-secrets + bandit, with the ratio.

    .venv/bin/python benchmarks/bench_scan.py [--n 200] [--repeat 3]

Writes a markdown table and JSON with machine info to benchmarks/results/.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_gen import corpus

from memgate.domain import Source
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules
from memgate.scanning.examples import expand
from memgate.trust import Inspector, Policy

SIZES = (512, 2048, 4096, 16384)
KINDS = ("prose", "code", "mixed", "hostile")
RESULTS = Path(__file__).resolve().parent / "results"
PY_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def _times(fn: Callable[[str], object], items: list[str], repeat: int) -> list[float]:
    samples: list[float] = []
    for _ in range(repeat):
        for text in items:
            t0 = time.perf_counter()
            fn(text)
            samples.append(time.perf_counter() - t0)
    return samples


def _peer() -> Callable[[str], object] | None:
    """detect-secrets over every line + bandit over every Python block: what a
    team would wire together instead of memgate."""
    try:
        from bandit.core import config as b_config
        from bandit.core import manager as b_manager
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    conf = b_config.BanditConfig()
    # Enter detect-secrets' settings once (not per call), so the peer is not
    # charged for its configuration on every memory.
    settings = default_settings()
    settings.__enter__()

    def run(text: str) -> object:
        assert settings is not None  # keeps the settings context alive (its exit resets them)
        found = [s for line in text.splitlines() for s in scan_line(line)]
        for block in PY_BLOCK.findall(text):
            mgr = b_manager.BanditManager(conf, "file", quiet=True)
            mgr._parse_file("<memory>", io.BytesIO(block.encode()), ["<memory>"])
            found.extend(mgr.get_issue_list())
        return found

    probe = run(expand("aws_access_key_id = AKIA{{gen:upper_digit:16}}", "peer-probe"))
    if not probe:
        raise RuntimeError("detect-secrets found nothing in its probe: settings not active")
    return run


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def machine() -> dict[str, object]:
    versions = {}
    for name in ("memgate-customs", "pydantic", "detect-secrets", "bandit", "xxhash"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=200, help="distinct inputs per cell")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-n", type=int, default=40, help="inputs per cell for the peer")
    args = parser.parse_args()

    policy = Policy.load()
    # cache_size=0: every scan does the full work (the cache would hide it).
    cold = Inspector(
        Scanner(load_rules(), BUILTIN_ANALYZERS, fingerprint_key=b"bench", cache_size=0), policy
    )
    warm = Inspector.default(fingerprint_key=b"bench")
    peer = _peer()
    rows = []
    for kind in KINDS:
        for size in SIZES:
            items = corpus(args.n, size, kind)
            for text in items[:20]:  # warm up imports and regex caches
                cold.inspect(text, Source.WEB)
            samples = _times(lambda t: cold.inspect(t, Source.WEB), items, args.repeat)
            warm_samples = _times(lambda t: warm.inspect(t, Source.WEB), items, args.repeat)
            row: dict[str, object] = {
                "kind": kind,
                "size": size,
                "median_ms": round(_ms(samples, 0.5), 4),
                "p99_ms": round(_ms(samples, 0.99), 4),
                "items_per_s": round(len(samples) / sum(samples)),
                "cached_median_ms": round(_ms(warm_samples, 0.5), 4),
            }
            if peer is not None:
                peer_samples = _times(peer, items[: args.peer_n], 1)
                row["peer_median_ms"] = round(_ms(peer_samples, 0.5), 4)
                row["ratio"] = round(_ms(peer_samples, 0.5) / max(_ms(samples, 0.5), 1e-9), 1)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    header = ["kind", "size", "median_ms", "p99_ms", "items_per_s", "cached_median_ms"]
    if peer is not None:
        header += ["peer_median_ms", "ratio"]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(str(r.get(h, "")) for h in header) + " |" for r in rows),
    ]
    table = "\n".join(lines)
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "scan.md").write_text(
        "# bench_scan\n\n"
        "peer = detect-secrets (every line) + bandit (every ```python block); "
        "ratio = peer median / memgate median (uncached).\n\n" + table + "\n"
    )
    (RESULTS / "scan.json").write_text(
        json.dumps({"machine": machine(), "args": vars(args), "rows": rows}, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
