"""Hippograph inside agent frameworks, each an optional extra over ``hippograph.client``:

    pip install 'hippograph[langgraph]'       hippograph.integrations.langgraph
    pip install 'hippograph[openai-agents]'   hippograph.integrations.openai_agents
    pip install 'hippograph[pydantic-ai]'     hippograph.integrations.pydantic_ai

Each takes a ``Client`` or ``AsyncClient`` (its namespace and API key are the client's
configuration; ``hippograph.integrations.common.client_from_env`` reads them from the
environment), passes the framework's own messages (roles, tool calls, tool results) to the
ledger after a turn, and puts the context bundle in front of the model before one. The modules
import only ``hippograph.client`` (``tests/integrations/test_layering.py``) and their framework.
"""
