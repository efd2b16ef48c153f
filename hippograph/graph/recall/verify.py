"""Relevance verification: the configured LLM checks a recall's best candidates before they are
served.

One bounded call per recall: the context and the top ``top_m`` candidates (their text cut to
``MAX_CHARS``) go to the model, which answers strict JSON ``{"relevant": [ids]}``: only
candidate ids, no repeats. The candidates it leaves out are rejected. Any failure (no answer
within the client's timeout, an HTTP error, output that is not exactly that shape) serves the
unverified ranking, marked with why. Verdicts are evidence for upkeep: verified memories count
as used together, rejected ones decay gently (``feedback.reject``).
"""

from __future__ import annotations

from collections.abc import Sequence

from hippograph.graph.errors import LLMError
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.recall.results import Recalled, Verdict

SCHEMA_NAME = "relevance"
MAX_CHARS = 600

_SYSTEM = """\
You check which memories are relevant to what an AI agent is about to answer. Given the
context and numbered candidate memories, list the ids of those that help answer or act on the
context; leave out the ones that do not. Answer with one JSON object and nothing else:
{"relevant": [ids of relevant candidates, most relevant first]}."""


class Verifier:
    """Asks ``client`` about the first ``top_m`` candidates of a recall.

    Args:
        client: an OpenAI-compatible chat client; its timeout bounds the call.
        top_m: how many of the best candidates are checked (the rest pass unchecked).
    """

    def __init__(self, client: JsonCompleter, *, top_m: int = 8) -> None:
        self.client, self.top_m = client, top_m

    def verify(self, context: str, items: Sequence[Recalled]) -> Verdict:
        candidates = [i for i in items if not i.flagged][: self.top_m]
        if not candidates:
            return Verdict(status="verified")
        listing = "\n".join(
            f"- id={i.memory.id}: {i.memory.content[:MAX_CHARS]}" for i in candidates
        )
        try:
            payload = self.client.complete_json(
                _SYSTEM, f"Context: {context[:2000]}\n\nCandidates:\n{listing}",
                schema_name=SCHEMA_NAME,
            )  # fmt: skip
            relevant = _parse(payload, [i.memory.id for i in candidates])
        except LLMError as exc:
            return Verdict(status=f"unverified: {exc.message[:200]}")
        chosen = set(relevant)
        return Verdict(
            status="verified",
            relevant=tuple(relevant),
            rejected=tuple(i.memory.id for i in candidates if i.memory.id not in chosen),
        )


def _parse(payload: object, known: Sequence[str]) -> list[str]:
    if not isinstance(payload, dict) or set(payload) != {"relevant"}:
        raise LLMError(f"{SCHEMA_NAME}: expected an object whose only key is 'relevant'")
    ids = payload["relevant"]
    if not isinstance(ids, list) or any(not isinstance(i, str) for i in ids):
        raise LLMError(f"{SCHEMA_NAME}: 'relevant' must be a list of candidate ids")
    if any(i not in known for i in ids):
        raise LLMError(f"{SCHEMA_NAME}: 'relevant' holds an id that is not a candidate")
    if len(set(ids)) != len(ids):
        raise LLMError(f"{SCHEMA_NAME}: 'relevant' repeats an id")
    return [str(i) for i in ids]
