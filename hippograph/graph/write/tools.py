"""The write path's configured helpers: the LLM client (if any), the decider and the
extraction settings, built from ``Settings`` once per request, command or job."""

from __future__ import annotations

from dataclasses import dataclass

from hippograph.graph.models.llm import ChatClient, JsonCompleter, LLMConfig
from hippograph.graph.write.decide import Decider, LLMDecider, OfflineDecider
from hippograph.settings import Settings


@dataclass(frozen=True, kw_only=True)
class ExtractionConfig:
    """When buffered turns are extracted, and by what.

    batch_size: a session's waiting turns are extracted once this many wait.
    max_age_s: ... or once the oldest has waited this long (seconds since ingest).
    client: the LLM extractor; None uses the offline extractor.
    decider: decides each fact against its neighbours; None uses the offline rules.
    """

    batch_size: int = 8
    max_age_s: float = 300.0
    client: JsonCompleter | None = None
    decider: Decider | None = None


DEFAULT_EXTRACTION = ExtractionConfig()


@dataclass
class WriteTools:
    """The configured LLM client (if any), the decider and the extraction settings, opened
    together for one request, command or job; ``close`` releases the HTTP pool."""

    decider: Decider
    extraction: ExtractionConfig
    client: ChatClient | None = None

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


def chat_client(settings: Settings, *, timeout_s: float | None = None) -> ChatClient | None:
    """A client of the configured LLM endpoint (None when none is configured); ``timeout_s``
    overrides ``HIPPOGRAPH_LLM_TIMEOUT_S``."""
    if not settings.llm.base_url:
        return None
    return ChatClient(
        LLMConfig(
            base_url=settings.llm.base_url,
            model=settings.llm.model,
            api_key=settings.llm.api_key or None,
            timeout_s=settings.llm.timeout_s if timeout_s is None else timeout_s,
        )
    )


def write_tools(settings: Settings) -> WriteTools:
    """LLM decider + extractor when ``HIPPOGRAPH_LLM_BASE_URL``/``_MODEL`` are set, else the
    offline ones."""
    client = chat_client(settings)
    decider: Decider = OfflineDecider() if client is None else LLMDecider(client)
    extraction = ExtractionConfig(
        batch_size=settings.write.extract_batch_size,
        max_age_s=settings.write.extract_max_age_s,
        client=client,
        decider=decider,
    )
    return WriteTools(decider=decider, extraction=extraction, client=client)
