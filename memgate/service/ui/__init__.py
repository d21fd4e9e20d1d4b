"""Review web UI served by the same app at /ui (see router.py)."""

from memgate.service.ui.router import build_ui_router

__all__ = ["build_ui_router"]
