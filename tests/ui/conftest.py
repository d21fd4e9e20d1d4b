"""Fixtures of the UI tests, defined in ui_support (a module name of its own: a
second `conftest` module on sys.path would shadow another directory's)."""

from ui_support import browser, page, ui_graph_server, ui_server

__all__ = ["browser", "page", "ui_graph_server", "ui_server"]
