"""A scanner process of the gateway's scan pool (`memgate/gateway/scanpool.py`):
`python -m memgate.gateway.scanchild`, started by the pool, never by hand.

Kept out of the package's imports, so that running it as `-m` imports it once."""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle  # frames only between the gateway and the children it started
import signal
import sys
from typing import Any

from memgate.domain import Source
from memgate.gateway.scanpool import FRAME, READY
from memgate.trust.inspector import Recipe

PR_SET_PDEATHSIG = 1


def die_with(parent: int) -> None:
    """End this process when `parent` dies: SIGKILL from the kernel on Linux (a
    gateway killed mid-start must not leave children compiling scanners), else
    at the next read of the closed input."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(0)


def serve(parent: int) -> None:
    """The child: build the inspector from the first frame, then answer scans
    until the input closes. Anything printed goes to stderr, never into a frame."""
    die_with(parent)
    # Ctrl-C in a terminal reaches the whole process group: the gateway decides
    # when its children stop (it closes their input).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    source = sys.stdin.buffer

    def read() -> Any:
        head = source.read(FRAME.size)
        if len(head) < FRAME.size:
            return None
        (size,) = FRAME.unpack(head)
        return pickle.loads(source.read(size))  # noqa: S301 - from our parent

    def write(value: object) -> None:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        out.write(FRAME.pack(len(data)) + data)
        out.flush()

    recipe = read()
    if not isinstance(recipe, Recipe):
        return
    inspector = recipe.build()
    inspector.inspect("warm up: `ls -la`", Source.TOOL)  # compile the analyzers now
    write(READY)
    while (request := read()) is not None:
        key, content, metadata, src = request
        try:
            rules, report, stored = inspector.inspect_keyed(key, content, metadata, src)
        except Exception as exc:  # the scanner never raises; if it did, say what
            write((False, exc.__class__.__name__))
            continue
        # NOTE: the report as JSON (pydantic's serializer and validator are Rust):
        # pickled, its nested models cost 4x as much to build again.
        write((True, (rules, report.model_dump_json(), stored)))


if __name__ == "__main__":
    serve(int(sys.argv[1]))
