"""A typed Python client of the Hippograph GraphQL API (httpx; sync and async).

    from hippograph.client import Client, NewMemory

    with Client("http://127.0.0.1:8000/graphql", namespace="demo") as memory:
        memory.remember(NewMemory(content="Ada prefers tea", memory_type="preference"))
        for item in memory.recall("drinks for Ada", k=3).items:
            print(item.score, item.memory.content)

It returns the domain's records (``Memory``, ``RememberResult``, ``Page``...) and raises the
domain's typed errors (``NotFound``, ``InvalidInput``...). It depends on ``hippograph.graph``
only for those two modules (``model`` and ``errors``), never on the engine.
"""

from __future__ import annotations

from hippograph.client.client import DEFAULT_URL, AsyncClient, Client
from hippograph.client.errors import RemoteError
from hippograph.client.records import (
    Explanation,
    Health,
    IngestResult,
    Link,
    MemoryHistory,
    Rating,
    RecallItem,
    RecallResult,
    Turn,
    TurnRef,
)
from hippograph.client.runs import FinishedRun
from hippograph.client.transcripts import from_anthropic, from_openai
from hippograph.client.views import (
    ContextBundle,
    ConversationPage,
    CoreBlock,
    Erasure,
    Profile,
    Session,
    SessionPage,
)
from hippograph.graph.errors import HippographError, InvalidInput, NotFound
from hippograph.graph.model import (
    Memory,
    MemoryFilter,
    NewMemory,
    Page,
    RememberResult,
    Source,
    ToolCall,
    ToolResult,
)
from hippograph.graph.runs.model import Run, RunStep, RunToolCall, SimilarRun, ToolStats

__all__ = [
    "DEFAULT_URL", "AsyncClient", "Client", "RemoteError", "Explanation", "Health",
    "IngestResult", "Link", "MemoryHistory", "Rating", "RecallItem", "RecallResult", "Turn",
    "TurnRef", "ToolCall", "ToolResult", "from_anthropic", "from_openai", "ContextBundle",
    "ConversationPage", "CoreBlock", "Erasure", "Profile", "Session", "SessionPage",
    "HippographError", "InvalidInput", "NotFound", "Memory", "MemoryFilter", "NewMemory",
    "Page", "RememberResult", "Source", "FinishedRun", "Run", "RunStep", "RunToolCall",
    "SimilarRun", "ToolStats",
]  # fmt: skip
