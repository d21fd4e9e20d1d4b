"""Fixtures of the HTTP service tests, defined in service_support (a module name
of its own: a second `conftest` module on sys.path would shadow another
directory's)."""

from service_support import anyio_backend, graph_service, same_keys, service

__all__ = ["anyio_backend", "graph_service", "same_keys", "service"]
