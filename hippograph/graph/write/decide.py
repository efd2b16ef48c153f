"""What to do with a new fact, given the memories most like it: one decision for every path
(remember, extraction, consolidation).

Actions:

- ``ADD``: a new memory.
- ``UPDATE(target)``: a refinement or correction; the target takes the new text and keeps the
  old one in its history.
- ``SUPERSEDE(target)``: a change over time; a new memory ``SUPERSEDES`` the target, which is
  kept as history ("works at Microsoft; previously Google").
- ``CONTRADICT(target)``: both kept, linked by ``CONTRADICTS`` and flagged for resolution.
- ``NOOP(target)``: the same fact again; the target is reinforced.

Two deciders share the ``Decider`` protocol. ``OfflineDecider`` is deterministic and
conservative: it acts only on strong evidence and a close neighbour, else it adds. In
conversation text an ordinary turn is a new memory: "now", "joined" or "used to" open many
turns that change nothing ("We adopted another puppy called Pixie" is a second puppy, not a
new value of the first), and a superseded turn can no longer be found. So SUPERSEDE needs a
new value of a single-valued attribute (employer: "works at"; home: "lives in", "moved to"),
a proper name, stated of the text's own subject, with a change cue ("now", "moved", "no
longer"), against a short target stating the same attribute of the same subject. UPDATE needs
an explicit correction (provenance ``user_corrected``, type ``correction``) or a correction cue
("actually", "not Jon, but") in a text that restates most of its target. A correction by cue
and a contradiction also need a short target (``statements.retirable``): the target's text
leaves recall, rewritten or, once consolidation resolves the contradiction, superseded; in
an assistant's chat, answers of several kilobytes hold an "actually" and a negation somewhere
and share most words (BEAM dev: 12 such rewrites and 32 contradictions between long turns,
each hiding an answer). Two turns are one
memory (NOOP) only when they hold nearly the same words. On the five LoCoMo
dev conversations the earlier cue-only rules superseded 95 of 2,760 turns (``bench/
write_decisions.py``). Its thresholds
are cosine similarities of all-MiniLM-L6-v2 embeddings, measured on pairs such as "Sam works at
Google" / "Sam now works at Microsoft" (0.74), "Ana likes coffee" / "Ana doesn't like coffee"
(0.93), "Ana prefers dark mode" / "Ana likes using dark mode" (0.95), "Melanie loves hiking" /
"Melanie loves painting" (0.63, two facts). A duplicate must also name the same things (proper
names and numbers): "Ana lives in Paris" / "Ana lives in Lima" are two facts. Duplicates and
contradictions also need the same subject (leading proper name or ``Speaker:`` prefix) when
both facts have one: "Ana likes tea" and "Bob likes tea" can embed above 0.92 but are two
facts. ``LLMDecider`` asks an
OpenAI-compatible model, with timestamps in the prompt, validates the answer strictly, and falls
back to the offline decider on any failure: a fact is never lost to a bad answer.

This module does no I/O apart from the LLM call; ``graph.write.writepath`` gathers the
neighbours and applies the decision. What a text says (subject, attributes, negation, cues) is
read by ``graph.text.statements``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from hippograph.graph.errors import LLMError
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.text.statements import (
    changes,
    clashes,
    contradicts,
    correction_cue,
    is_turn,
    names,
    restates,
    retirable,
    said_again,
    subject,
)

log = logging.getLogger(__name__)

ACTIONS: tuple[str, ...] = ("ADD", "UPDATE", "SUPERSEDE", "CONTRADICT", "NOOP")

# Offline thresholds (cosine). See the module docstring for the pairs they come from.
NOOP_MIN = 0.92  # paraphrase of the same fact, same memory type, no negation clash
UPDATE_MIN = 0.70  # explicit correction cue and a target at least this close
SUPERSEDE_MIN = 0.60  # a new value of the same attribute of the same subject, with a cue
CONTRADICT_MIN = 0.85  # negation/antonym clash with a very similar target
CONSIDER_MIN = 0.55  # neighbours below this never lead to anything but ADD


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """The new fact as the decider sees it."""

    content: str
    memory_type: str
    provenance: str
    occurred_at: str | None = None


@dataclass(frozen=True, kw_only=True)
class Neighbour:
    """An existing memory close to the candidate (same namespace and scope).

    cosine: embedding similarity; overlap: share of the candidate's words it contains.
    """

    id: str
    content: str
    memory_type: str
    cosine: float
    overlap: float
    created_at: str
    updated_at: str


@dataclass(frozen=True, kw_only=True)
class Decision:
    action: str
    target: str | None
    reason: str
    decider: str
    similarity: float | None = None


class Decider(Protocol):
    name: str

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision: ...


# ---------------------------------------------------------------- offline


def is_correction(candidate: Candidate) -> bool:
    return (
        candidate.provenance == "user_corrected"
        or candidate.memory_type == "correction"
        or correction_cue(candidate.content)
    )


def _compatible(a: str | None, b: str | None) -> bool:
    """Two facts can be the same (or opposite) only if they are about the same subject:
    "Ana likes tea" and "Bob likes tea" embed very close but are two facts."""
    return a is None or b is None or a == b


class OfflineDecider:
    """Deterministic rules, first match wins, over neighbours in order of similarity."""

    name = "offline"

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        close = sorted((n for n in neighbours if n.cosine >= CONSIDER_MIN), key=lambda n: -n.cosine)
        text = candidate.content
        if is_correction(candidate):
            explicit = candidate.provenance == "user_corrected" or (
                candidate.memory_type == "correction"
            )
            for n in close:
                if n.cosine >= UPDATE_MIN and (
                    explicit
                    or (
                        _compatible(subject(text), subject(n.content))
                        and restates(text, n.content)
                        and retirable(n.content)
                    )
                ):
                    return self._made("UPDATE", n, "a correction of a close memory")
        for n in close:
            if n.cosine >= SUPERSEDE_MIN and changes(text, n.content):
                return self._made("SUPERSEDE", n, "a new value of the same attribute")
        mine = subject(text)
        close = [n for n in close if _compatible(mine, subject(n.content))]
        for n in close:
            if n.cosine >= CONTRADICT_MIN and retirable(n.content) and contradicts(text, n.content):
                return self._made("CONTRADICT", n, "states the opposite of a very similar memory")
        for n in close:
            if (
                n.cosine >= NOOP_MIN
                and n.memory_type == candidate.memory_type
                and not clashes(text, n.content)
                and names(text) == names(n.content)
                and (not is_turn(text) or said_again(text, n.content))
            ):
                return self._made("NOOP", n, "a paraphrase of an existing memory")
        best = close[0].cosine if close else None
        return Decision(
            action="ADD", target=None, reason="no close memory says this", decider=self.name,
            similarity=best,
        )  # fmt: skip

    def _made(self, action: str, n: Neighbour, why: str) -> Decision:
        return Decision(
            action=action,
            target=n.id,
            reason=f"{why} (cosine {n.cosine:.3f}, word overlap {n.overlap:.2f})",
            decider=self.name,
            similarity=n.cosine,
        )


# ---------------------------------------------------------------- LLM

SCHEMA_NAME = "memory_decision"
_SYSTEM_PROMPT = """\
You maintain an AI agent's long-term memory. A new fact arrives; existing memories that are \
similar are listed with their ids and timestamps. Decide what to do with the new fact.
Answer with one JSON object and nothing else, exactly this shape:
{"action": "ADD" | "UPDATE" | "SUPERSEDE" | "CONTRADICT" | "NOOP", \
"target_id": string or null, "reason": string}
- ADD: it is a new fact (target_id null).
- UPDATE: it refines or corrects an existing memory that was wrong or imprecise.
- SUPERSEDE: the world changed over time; the existing memory was true then, the new fact is \
true now (use the timestamps: "works at Google" then later "works at Microsoft").
- CONTRADICT: it states the opposite of an existing memory and it is unclear which is right.
- NOOP: it says the same as an existing memory.
target_id must be one of the listed ids for every action but ADD. Be conservative: when \
unsure, ADD."""


def _render(candidate: Candidate, neighbours: Sequence[Neighbour]) -> str:
    lines = [
        f"New fact (said at {candidate.occurred_at or 'now'}, type {candidate.memory_type}): "
        f"{candidate.content}",
        "Existing memories:",
    ]
    lines += [
        f"- id {n.id} (created {n.created_at}, updated {n.updated_at}, type {n.memory_type}, "
        f"similarity {n.cosine:.2f}): {n.content}"
        for n in neighbours
    ] or ["(none)"]
    return "\n".join(lines)


def parse_llm_decision(payload: object, known: frozenset[str]) -> tuple[str, str | None, str]:
    """Validate ``{"action", "target_id", "reason"}``; the first violation raises LLMError."""
    if not isinstance(payload, dict) or set(payload) != {"action", "target_id", "reason"}:
        raise LLMError(f"{SCHEMA_NAME}: expected exactly the keys action, target_id, reason")
    action, target, reason = payload["action"], payload["target_id"], payload["reason"]
    if action not in ACTIONS:
        raise LLMError(f"{SCHEMA_NAME}: action must be one of {list(ACTIONS)}, not {action!r}")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 1000:
        raise LLMError(f"{SCHEMA_NAME}: reason must be a string of 1-1000 characters")
    if action == "ADD":
        if target is not None:
            raise LLMError(f"{SCHEMA_NAME}: ADD takes no target_id")
        return action, None, reason.strip()
    if not isinstance(target, str) or target not in known:
        raise LLMError(f"{SCHEMA_NAME}: target_id {target!r} is not one of the listed memories")
    return action, target, reason.strip()


class LLMDecider:
    """The configured model decides; any failure falls back to ``fallback`` for the same fact."""

    name = "llm"

    def __init__(self, client: JsonCompleter, fallback: Decider | None = None) -> None:
        self._client = client
        self._fallback = fallback or OfflineDecider()

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        if not neighbours:
            # Nothing to compare with: ADD, without spending a model call.
            return Decision(action="ADD", target=None, reason="no similar memory", decider="llm")
        try:
            payload = self._client.complete_json(
                _SYSTEM_PROMPT, _render(candidate, neighbours), schema_name=SCHEMA_NAME
            )
            action, target, reason = parse_llm_decision(
                payload, frozenset(n.id for n in neighbours)
            )
        except LLMError as exc:
            log.warning("LLM decider failed, using the offline decider: %s", exc.message)
            fallback = self._fallback.decide(candidate, neighbours)
            return replace(
                fallback,
                decider=f"{fallback.decider} (llm failed)",
                reason=f"{fallback.reason}; LLM failed: {exc.message[:300]}",
            )
        similarity = next((n.cosine for n in neighbours if n.id == target), None)
        return Decision(
            action=action, target=target, reason=reason, decider="llm", similarity=similarity
        )


class BudgetedDecider:
    """``decider`` for the first ``calls`` decisions it is asked for, then ``fallback`` (the
    offline rules by default), labelled as such: a bound on the model calls of one job run
    (consolidating a large namespace would otherwise ask the model once per candidate)."""

    def __init__(self, decider: Decider, calls: int, fallback: Decider | None = None) -> None:
        self.name = decider.name
        self._decider = decider
        self._fallback = fallback or OfflineDecider()
        self.calls = calls
        self.spent = 0
        self.over = 0  # decisions left to the fallback once the budget was spent

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        if not neighbours:
            return self._decider.decide(candidate, neighbours)  # no call is made for these
        if self.spent >= self.calls:
            self.over += 1
            fallback = self._fallback.decide(candidate, neighbours)
            return replace(fallback, decider=f"{fallback.decider} (llm budget spent)")
        self.spent += 1
        return self._decider.decide(candidate, neighbours)


def to_json(decision: Decision) -> str:
    return json.dumps(decision.__dict__, sort_keys=True)
