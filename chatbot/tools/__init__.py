"""Tools the model can call inside a turn: definitions (base), the registry, Python functions, MCP servers.

May import :mod:`chatbot.errors` and :mod:`chatbot.engine` only. The ``mcp`` SDK is imported by
:mod:`chatbot.tools.mcp_client` alone, and only when a server is named.
"""
