"""Leases: which replica runs a job only one may run (the graph projector).

    lease = open_lease("postgresql://host/memgate", name="memgate:projector:memgate")
    lease = FileLease(Path("data/graph/projector.lease"))   # replicas on one host
    lease = LeaseBoard().lease()                            # the in-memory twin

Each implements `memgate.domain.ports.Lease`. A holder that dies frees its lease
(connection closed, file lock dropped by the kernel); the others poll.
"""

from __future__ import annotations

from pathlib import Path

from memgate.domain.ports import Lease
from memgate.lease.file import FileLease
from memgate.lease.memory import LeaseBoard, MemoryLease

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_lease(where: str | Path, *, name: str) -> Lease:
    """A PostgreSQL lease for a `postgresql://` URL (session advisory lock), else a
    file lease at the path `where`."""
    if isinstance(where, str) and where.startswith(POSTGRES_SCHEMES):
        from memgate.lease.postgres import PostgresLease  # the `postgres` extra

        return PostgresLease(where, name)
    return FileLease(Path(where))


__all__ = ["POSTGRES_SCHEMES", "FileLease", "LeaseBoard", "MemoryLease", "open_lease"]
