"""The gateway: composes inspector, pools and log. The library's main entry point."""

from memgate.gateway.core import Gateway, WriteReceipt, render_context
from memgate.gateway.sync import SyncGateway

__all__ = ["Gateway", "SyncGateway", "WriteReceipt", "render_context"]
