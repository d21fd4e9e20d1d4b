"""HTTP client for a remote memgate server (used by the CLI --url mode and the adapters).

Answers parse into the domain models (MemoryItem, WriteReceipt, RollbackPlan,
Investigation, ...); problem answers raise the matching memgate error (see
`memgate.client.errors`).
"""

from memgate.client.aio import AsyncMemgateClient
from memgate.client.errors import (
    Forbidden,
    InvalidRequest,
    RemoteError,
    RemoteIllegalTransition,
    RemoteNotFound,
    RemoteOversizedWrite,
    RemoteRecallUnavailable,
    RemoteReviewRefused,
    RemoteRollbackInProgress,
    RemoteWriteRefused,
    Unauthorized,
    Unavailable,
)
from memgate.client.models import ApiKey, BulkResult, CreatedKey, LogPage, Page
from memgate.client.sync import MemgateClient

__all__ = [
    "ApiKey",
    "AsyncMemgateClient",
    "BulkResult",
    "CreatedKey",
    "Forbidden",
    "InvalidRequest",
    "LogPage",
    "MemgateClient",
    "Page",
    "RemoteError",
    "RemoteIllegalTransition",
    "RemoteNotFound",
    "RemoteOversizedWrite",
    "RemoteRecallUnavailable",
    "RemoteReviewRefused",
    "RemoteRollbackInProgress",
    "RemoteWriteRefused",
    "Unauthorized",
    "Unavailable",
]
