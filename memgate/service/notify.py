"""Notifications in the service: the delivery worker that runs beside the app
(started in its lifespan), and the notices the service itself raises (a failed
verify: it is no log event, so no trigger writes it)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from fastapi import FastAPI, Request

from memgate.bootstrap import open_outbox
from memgate.domain.events import VerifyResult
from memgate.domain.memory import utcnow
from memgate.domain.notices import verify_notice
from memgate.domain.ports import Outbox
from memgate.notify import Deliverer
from memgate.service.settings import Settings

log = logging.getLogger("memgate.service")


@dataclass(slots=True)
class Notifier:
    """The outbox and its worker while the app runs (`app.state.notifier`)."""

    outbox: Outbox
    deliverer: Deliverer
    task: asyncio.Task[None]

    @classmethod
    def start(cls, settings: Settings) -> Notifier:
        outbox = open_outbox(settings.data_dir, settings.store)
        deliverer = Deliverer(
            outbox,
            settings.notify_targets,
            secret=settings.notify_key,
            backoff=settings.notify_backoff,
            public_url=settings.public_url,
        )
        task = asyncio.create_task(deliverer.run(), name="memgate-notify")
        if settings.notify_targets and settings.notify_key is None:
            log.warning("notifications are sent unsigned: set MEMGATE_NOTIFY_SECRET")
        return cls(outbox, deliverer, task)

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.deliverer.close()
        await self.outbox.close()


def notifier_of(app: FastAPI) -> Notifier | None:
    found = getattr(app.state, "notifier", None)
    return found if isinstance(found, Notifier) else None


async def tell_verify(request: Request, result: VerifyResult) -> None:
    """Queue a failed verify's notice (the same failure found again is told once).
    A failure to queue it never hides the verify result."""
    notifier = notifier_of(request.app)
    if result.ok or notifier is None:
        return
    try:
        await notifier.outbox.enqueue(verify_notice(result, utcnow()))
    except Exception as exc:
        log.warning("could not queue the verify failure notice: %s", type(exc).__name__)
