"""Start and stop a real `memgate serve` (a subprocess on a free port)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

KEY_LINE = re.compile(r"admin key \(shown once, store it now\): (mgk_\S+)")


@dataclass(frozen=True)
class Server:
    url: str
    admin_key: str
    data_dir: Path
    output: Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(data_dir: Path, log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    env.pop("MEMGATE_URL", None)
    env.pop("MEMGATE_KEY", None)
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "memgate.cli",
                "serve",
                "--data-dir",
                str(data_dir),
                "--port",
                str(port),
                "--log-level",
                "warning",
                *extra,
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"memgate serve exited: {log.read_text()}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"memgate serve did not answer: {log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
