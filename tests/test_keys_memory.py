"""The KeyStore contract on the in-memory twin."""

from __future__ import annotations

from memgate.service.keys import KeyStoreBase
from memgate.service.keys_memory import MemoryKeyStore
from tests.contracts.key_store_contract import KeyStoreContract


class TestMemoryKeyStore(KeyStoreContract):
    def make(self, *, cache_seconds: float = 5.0) -> KeyStoreBase:
        return MemoryKeyStore(cache_seconds=cache_seconds)
