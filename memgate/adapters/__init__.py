"""Framework adapters: LangGraph store, OpenAI Agents session, AutoGen memory,
Agent Framework context provider, MCP server; and memgate in front of the stores
people already use: mem0 (`GuardedMemory`), LlamaIndex vector stores
(`MemgateVectorStore`), CrewAI memory storage (`MemgateStorage`).

Each framework's adapter is its own module (`memgate.adapters.langgraph`,
`.openai_agents`, `.autogen`, `.agent_framework`, `.mcp`, `.mem0`, `.llama_index`,
`.crewai`) and imports its framework only there, so `import memgate.adapters`
works without any extra installed.
Every adapter takes a `Backend`: an in-process `Gateway`, or a `RemoteBackend`
for a memgate server.
"""

from memgate.adapters._backend import Backend, MemoryHeld, MemoryStatus, RemoteBackend

__all__ = ["Backend", "MemoryHeld", "MemoryStatus", "RemoteBackend"]
