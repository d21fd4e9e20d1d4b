"""The CrewAI tests run in their own environment (`make setup-crewai`, .venv-crewai):
crewai pins openai<3, pydantic<2.13 and mcp<2, which the dev environment's
openai-agents, agent-framework and MCP adapters outgrew. In the dev environment
`tests/adapters/test_adapter_crewai.py` runs this directory with that
environment's Python; collected directly there, it is left out."""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("crewai") is None:
    collect_ignore_glob = ["test_*.py"]
