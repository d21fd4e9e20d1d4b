"""Framework adapters: LangGraph store, OpenAI Agents session, AutoGen memory, MCP server."""
