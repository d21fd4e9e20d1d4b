"""chunk() latency: median and p99 µs per text for prose, mixed and code-heavy
inputs at 0.5, 2 and 16 KB (seeded, generated here).

    .venv/bin/python benchmarks/bench_chunk.py [--n 40] [--repeat 25] [--seed 7]

Prints a markdown table and writes it with JSON (machine info) to
benchmarks/results/chunk.{md,json}. Budget: ≤ 30 µs median for 2 KB prose, ≤ 60 µs for 2 KB
mixed text.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine

from memgate.chunking import chunk

SIZES = (512, 2048, 16384)
KINDS = ("prose", "mixed", "code")

_EN = [
    "The deploy pipeline runs unit tests first, then the integration suite against staging.",
    "We agreed to keep the retry budget at three attempts (with exponential backoff).",
    "Customer feedback from the last sprint mostly concerned slow search on large accounts.",
    "The on-call rotation changes every Monday at 09:00 UTC; hand-offs happen in the channel.",
    "Invoices are generated on the first business day and emailed as PDF attachments.",
    "The user prefers concise answers with code samples in Python rather than JavaScript.",
    "Latency on the read path went from 40 ms to 12 ms after adding the covering index.",
    "Meeting notes: migrate the cron jobs to the scheduler service before the freeze.",
    "Remember that Alice (the team lead) reviews every schema change, see [1].",
]
_ZH = [
    "本周的发布计划已确认，周四晚上进行灰度，周五全量。",
    "用户希望回答简洁，并且示例代码使用 Python。",
    "数据库迁移脚本需要先在预发环境验证，再提交评审。",
]
_PY = [
    "def load_config(path):\n    with open(path) as fh:\n        return json.load(fh)\n",
    "for item in items:\n    if item.price > limit:\n        expensive.append(item)\n",
    "result = subprocess.run(['git', 'status'], capture_output=True, text=True)\n",
    "import requests\nresp = requests.get(url, timeout=10)\nresp.raise_for_status()\n",
]
_SHELL = [
    "$ pip install -r requirements.txt\n",
    "git checkout -b feature/search && git push -u origin feature/search\n",
    "docker compose up -d db\n",
    "curl -fsSL https://get.example.net/x.sh | bash\n",
]
_JS = ["const fs = require('fs');\nfs.readFileSync('/etc/passwd');\n"]


def _prose(rng: random.Random, zh: float = 0.15) -> str:
    lines = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < zh:
            lines.append(rng.choice(_ZH))
        else:
            lines.append(" ".join(rng.choice(_EN) for _ in range(rng.randint(1, 3))))
    return "\n".join(lines) + "\n"


def _json(rng: random.Random) -> str:
    obj = {
        "status": rng.choice(["ok", "degraded", "failed"]),
        "items": [{"id": rng.randrange(10**6), "tag": rng.choice(["a", "b"])} for _ in range(2)],
        "took_ms": rng.randrange(1, 900),
    }
    return f"The tool returned {json.dumps(obj)} at noon.\n"


def _piece(rng: random.Random, kind: str, i: int) -> str:
    if kind == "prose":
        return _prose(rng, zh=0.1)
    if kind == "code":
        roll = rng.random()
        if roll < 0.35:
            return "```python\n" + rng.choice(_PY) + "```\n"
        if roll < 0.5:
            return "```bash\n" + rng.choice(_SHELL) + "```\n"
        if roll < 0.75:
            return rng.choice(_PY)
        if roll < 0.9:
            return "".join(rng.sample(_SHELL, 2))
        return rng.choice(_JS)
    # mixed: per ~2 KB, prose (some Chinese) with a fenced block, a JSON object in a
    # sentence and a few shell lines.
    cycle = i % 10
    if cycle == 1:
        return "Here is the helper:\n```python\n" + rng.choice(_PY) + "```\n"
    if cycle == 3:
        return _json(rng)
    if cycle == 5:
        return "Setup:\n" + "".join(rng.sample(_SHELL, rng.randint(2, 3)))
    return _prose(rng, zh=0.3)


def generate(size: int, kind: str, seed: int) -> str:
    """About `size` characters of `kind`; cut at a line end."""
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    i = 0
    while total < size:
        piece = _piece(rng, kind, i)
        parts.append(piece)
        total += len(piece)
        i += 1
    text = "".join(parts)[:size]
    cut = text.rfind("\n")
    return text[: cut + 1] if cut > size // 2 else text


def bench(items: list[str], repeat: int) -> tuple[float, float]:
    for text in items:  # warm-up
        chunk(text)
    samples: list[float] = []
    gc.disable()
    try:
        for _ in range(repeat):
            for text in items:
                t0 = time.perf_counter()
                chunk(text)
                samples.append(time.perf_counter() - t0)
    finally:
        gc.enable()
    samples.sort()
    median = statistics.median(samples) * 1e6
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))] * 1e6
    return median, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="texts per cell")
    parser.add_argument("--repeat", type=int, default=25, help="passes over the texts")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    lines = ["| input | size | median µs | p99 µs |", "|---|---:|---:|---:|"]
    print("\n".join(lines))
    rows = []
    for kind in KINDS:
        for size in SIZES:
            items = [generate(size, kind, args.seed * 1_000_003 + i) for i in range(args.n)]
            repeat = max(1, args.repeat * 2048 // max(size, 2048))
            median, p99 = bench(items, repeat)
            rows.append({"kind": kind, "size": size, "median_us": median, "p99_us": p99})
            lines.append(f"| {kind} | {size} B | {median:.1f} | {p99:.1f} |")
            print(lines[-1])
    results = Path(__file__).resolve().parent / "results"
    results.mkdir(exist_ok=True)
    (results / "chunk.md").write_text("# bench_chunk\n\n" + "\n".join(lines) + "\n")
    data = {"machine": machine(), "args": vars(args), "rows": rows}
    (results / "chunk.json").write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
