"""HTTP service: FastAPI app (create_app), API keys and roles, review web UI."""
