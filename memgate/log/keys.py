"""Secret keys kept outside the database: the log MAC key and the fingerprint key."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from memgate.errors import KeyFileError


def load_or_create_key(path: Path, *, env: str | None = None, size: int = 32) -> bytes:
    """The key from environment variable `env` if set, else from `path`; a new
    random key is written to `path` (mode 0600) on first use."""
    if env and os.environ.get(env):
        value = os.environ[env].encode()
        if len(value) < 16:
            raise KeyFileError(f"{env} must be at least 16 characters")
        return value
    if path.exists():
        data = path.read_bytes().strip()
        if len(data) < 32:
            raise KeyFileError(f"key file {path} is too short or damaged")
        return data
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data = secrets.token_hex(size).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return data


def load_key(path: Path, *, env: str | None = None) -> bytes:
    """The key from `env` or `path`, never creating one (read-only commands)."""
    if env and os.environ.get(env):
        return load_or_create_key(path, env=env)
    if not path.exists():
        raise KeyFileError(f"no key at {path} (and {env or 'no environment variable'} unset)")
    return load_or_create_key(path)
