"""A small client for any OpenAI-compatible chat-completions endpoint that must answer in
JSON (fact extraction on top of it lives in ``graph.write.extract_llm``).

Every way the call can go wrong (refused connection, timeout, HTTP error status, a body that
is not the chat-completions shape, a message that is not JSON, JSON that breaks the facts
schema anywhere) becomes ``LLMError`` and nothing is accepted, so the caller has one thing
to catch before falling back to ``extract.extract_offline`` for the same turns.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol

import httpx

from hippograph.graph.errors import ConfigError, LLMError

_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\r?\n?(?P<body>[\s\S]*?)```")
_MAX_ERROR_BODY = 300


@dataclass(frozen=True, kw_only=True)
class LLMConfig:
    """Where the endpoint is and how long to wait.

    Args:
        base_url: up to and including the version, e.g. ``http://127.0.0.1:11434/v1``;
            ``/chat/completions`` is appended.
        model: the model name the endpoint expects.
        api_key: sent as ``Authorization: Bearer <key>`` when given.
        timeout_s: limit for connecting and for each read or write, in seconds.
    """

    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 20.0

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError("LLMConfig.base_url", "must start with http:// or https://")
        if not self.model.strip():
            raise ConfigError("LLMConfig.model", "must not be empty")
        if not 0 < self.timeout_s <= 600:
            raise ConfigError("LLMConfig.timeout_s", "must be in (0, 600] seconds")


class ChatClient:
    """One connection pool to the endpoint; use it as a context manager or call ``close``."""

    def __init__(self, config: LLMConfig) -> None:
        self._config = config
        headers = {"Accept": "application/json"}
        if config.api_key:
            headers["Authorization"] = f"Bearer {config.api_key}"
        self._http = httpx.Client(
            base_url=config.base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(config.timeout_s),
        )

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def complete_json(self, system: str, user: str, *, schema_name: str) -> object:
        """Ask for one JSON object and return it parsed.

        Args:
            system: the system prompt; it should say what JSON shape to produce.
            user: the user message.
            schema_name: what is being asked for, named in every error message.
        """
        body = {
            "model": self._config.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "response_format": {"type": "json_object"},
            "temperature": 0,
        }
        response = self._post(body, schema_name)
        return parse_json_content(_message_content(response, schema_name), schema_name)

    def _post(self, body: dict[str, object], schema_name: str) -> object:
        try:
            response = self._http.post("/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise LLMError(
                f"{schema_name}: no answer within {self._config.timeout_s}s ({exc!r})"
            ) from exc
        except httpx.HTTPError as exc:
            raise LLMError(f"{schema_name}: request failed ({exc!r})") from exc
        if response.is_error:
            raise LLMError(
                f"{schema_name}: endpoint answered HTTP {response.status_code}: "
                f"{response.text[:_MAX_ERROR_BODY]}"
            )
        try:
            return response.json()
        except ValueError as exc:
            raise LLMError(f"{schema_name}: response body is not JSON") from exc


def _message_content(response: object, schema_name: str) -> str:
    """``choices[0].message.content`` of a chat-completions response."""
    choices = response.get("choices") if isinstance(response, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise LLMError(f"{schema_name}: response has no text in choices[0].message.content")
    return content


def parse_json_content(content: str, schema_name: str) -> object:
    """Parse a model's message as JSON, accepting it wrapped in a Markdown code fence."""
    try:
        return json.loads(content)
    except ValueError:
        pass
    fenced = _FENCE.search(content)
    if fenced is not None:
        try:
            return json.loads(fenced.group("body"))
        except ValueError:
            pass
    raise LLMError(f"{schema_name}: model output is not JSON: {content[:_MAX_ERROR_BODY]!r}")


class JsonCompleter(Protocol):
    """What the LLM callers (extraction, write decisions) need from a client; ``ChatClient`` is
    one."""

    def complete_json(self, system: str, user: str, *, schema_name: str) -> object: ...
