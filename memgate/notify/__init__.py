"""Notifications: the outbox's delivery worker, the wire formats and signatures.

    deliverer = Deliverer(outbox, [Target.parse("slack:https://hooks.slack.com/...")],
                          secret=b"...")
    await deliverer.run()

Receivers check a request with `verify_signature(secret, body, timestamp, header)`.
"""

from memgate.notify.deliver import Attempt, Backoff, Deliverer, DrainReport, Target, send_test
from memgate.notify.formats import (
    NOTICE_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Format,
    render,
    signature,
    verify_signature,
)

__all__ = [
    "NOTICE_HEADER",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "Attempt",
    "Backoff",
    "Deliverer",
    "DrainReport",
    "Format",
    "Target",
    "render",
    "send_test",
    "signature",
    "verify_signature",
]
