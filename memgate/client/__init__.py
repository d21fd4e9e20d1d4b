"""HTTP client for a remote memgate server (used by the CLI --url mode and the adapters)."""
