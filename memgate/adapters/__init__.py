"""Framework adapters: LangGraph store, OpenAI Agents session, AutoGen memory,
Agent Framework context provider, MCP server.

Each framework's adapter is its own module (`memgate.adapters.langgraph`,
`.openai_agents`, `.autogen`, `.agent_framework`, `.mcp`) and imports its framework
only there, so `import memgate.adapters` works without any extra installed.
Every adapter takes a `Backend`: an in-process `Gateway`, or a `RemoteBackend`
for a memgate server.
"""

from memgate.adapters._backend import Backend, MemoryHeld, MemoryStatus, RemoteBackend

__all__ = ["Backend", "MemoryHeld", "MemoryStatus", "RemoteBackend"]
