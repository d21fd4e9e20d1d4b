"""A witness: signed checkpoints written to a directory on a schedule.

Point `MEMGATE_WITNESS_DIR` at storage the memgate host cannot rewrite later
(another machine's mount, an append-only bucket sync, a WORM volume): each
checkpoint there pins the log up to its sequence number, for anyone holding
the public key (`memgate log verify --checkpoint F --public-key P`). A new file
is written only when the log has grown; a failure is logged and retried at the
next tick, never stopping the service."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from memgate.domain.events import Checkpoint
from memgate.log.integrity import SignsCheckpoints

log = logging.getLogger("memgate.witness")


def checkpoint_path(directory: Path, point: Checkpoint) -> Path:
    return directory / f"checkpoint-{point.seq:012d}.json"


def write_checkpoint(directory: Path, point: Checkpoint) -> Path:
    """Atomically (temporary file, then rename): a reader never sees half a file."""
    directory.mkdir(parents=True, exist_ok=True)
    final = checkpoint_path(directory, point)
    temporary = final.with_suffix(".tmp")
    temporary.write_text(point.model_dump_json() + "\n", encoding="utf-8")
    os.replace(temporary, final)
    return final


async def witness(store: SignsCheckpoints, directory: Path, every: float) -> None:
    """Forever: export a signed checkpoint and write it when the log grew."""
    last = -1
    while True:
        try:
            point = await store.export_checkpoint()
            if point.seq != last:
                await asyncio.to_thread(write_checkpoint, directory, point)
                last = point.seq
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("witness checkpoint failed: %s: %s", type(exc).__name__, exc)
        await asyncio.sleep(every)
