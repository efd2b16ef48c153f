"""Cheap local scan of one conversation turn for phrases that usually carry a memory.

No model, no I/O: a handful of word-boundary regexes compiled at import. The extractor uses
the kinds to type a fact; a caller can use ``high`` to decide which turns deserve the LLM.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Signal:
    """What the scan saw: ``kinds`` in the fixed order of ``KINDS``; ``high`` if any."""

    high: bool
    kinds: tuple[str, ...]


_A = "['’]"  # typed and typographic apostrophes both occur in chat logs
_MODIFIER = r"(?:really|also|just|absolutely|totally|truly|definitely|still|do|don{a}?t|do\s+not)"


def _compile(*alternatives: str) -> re.Pattern[str]:
    joined = "|".join(f"(?:{alt.format(a=_A)})" for alt in alternatives)
    return re.compile(joined, re.IGNORECASE | re.MULTILINE)


_PREFERENCE = _compile(
    r"\bI(?:\s+" + _MODIFIER + r")*\s+(?:prefer|like|love|hate|enjoy|dislike|adore|loathe)\b",
    r"\bI{a}d\s+(?:much\s+|really\s+)?rather\b",
    r"\bmy\s+(?:all[- ]time\s+)?(?:favou?rite|preferred)\b",
    r"\bI{a}m\s+(?:a\s+)?(?:huge\s+|big\s+)?fan\s+of\b",
    r"\bI\s+can{a}?t\s+stand\b",
)
_CORRECTION = _compile(
    r"\bactually\b",
    r"\bno,?\s+(?:it{a}s|it\s+is|it\s+was|that{a}s|I\s+meant|I\s+said)\b",
    r"\bI\s+meant\b",
    r"\bcorrection\s*:",
    r"\bthat{a}s\s+(?:not\s+(?:right|correct|true)|wrong|incorrect)\b",
    r"\bI\s+was\s+wrong\b",
    r"\bscratch\s+that\b",
    r"\bI\s+misspoke\b",
)
_DECISION = _compile(
    r"\b(?:we|I)(?:{a}ve|\s+have)?\s+(?:finally\s+|just\s+)?decided\b",
    r"\blet{a}s\s+(?:go\s+with|use|stick\s+with)\b",
    r"\bwe(?:{a}ll|\s+will)\s+(?:use|go\s+with|stick\s+with)\b",
    r"\bwe(?:{a}re|\s+are)\s+going\s+with\b",
    r"\bwe\s+agreed\b",
    r"\bdecision\s*:",
)
_COMMITMENT = _compile(
    r"\bI\s+will\b",
    r"\bI{a}ll\b",
    r"\bI\s+promise\b",
    r"\bdeadlines?\b",
    r"\bI{a}m\s+going\s+to\b",
    r"\bdue\s+(?:by|on)\b",
)
# "don't" as a rule, not as "I don't know": the common mental-state verbs are excluded.
_NOT_A_RULE = (
    r"(?!\s+(?:know|think|remember|recall|understand|mind|worry|care|get|see|believe|feel"
    r"|have|really|even)\b)"
)
_NEGATIVE = _compile(
    r"\bnever\b",
    r"\balways\b",
    r"\bavoid(?:s|ed|ing)?\b",
    r"\b(?:don{a}?t|do\s+not)\b" + _NOT_A_RULE,
    r"\b(?:must|should)(?:n{a}t|\s+not)\b",
)
_REMEMBER = _compile(
    r"\bremember\s+(?:that|this|to)\b",
    r"\bnote\s+that\b",
    r"\bkeep\s+in\s+mind\b",
    r"\bdon{a}?t\s+forget\b",
    r"\bmake\s+a\s+note\b",
    r"\bfor\s+future\s+reference\b",
)
# "First we went to the beach, then..." is a story, not a procedure: the step after "first"
# must not start with a subject pronoun.
_PROCEDURE = _compile(
    r"(?:^|[.!?:;]\s+)first(?:ly)?,?\s+(?!(?:I|we|he|she|they|you|it|the\s+time)\b)"
    r"[\s\S]{{0,400}}?\b(?:then|next|after\s+that|afterwards|finally)\b",
    r"\byou\s+(?:first|need\s+to\s+first)\b[\s\S]{{0,400}}?\bthen\b",
    r"\bstep\s*(?:1|one)\b",
    r"^[ \t]*1[.)][ \t]+\S.*\n[ \t]*2[.)][ \t]+\S",
)

_KIND_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("preference", _PREFERENCE),
    ("correction", _CORRECTION),
    ("decision", _DECISION),
    ("commitment", _COMMITMENT),
    ("negative", _NEGATIVE),
    ("remember", _REMEMBER),
    ("procedure", _PROCEDURE),
)
KINDS: tuple[str, ...] = tuple(kind for kind, _ in _KIND_PATTERNS)


def score(text: str) -> Signal:
    """Scan one turn's text.

    Args:
        text: the turn as said; case and apostrophe style do not matter.
    """
    kinds = tuple(kind for kind, pattern in _KIND_PATTERNS if pattern.search(text))
    return Signal(high=bool(kinds), kinds=kinds)
