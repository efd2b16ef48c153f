"""Standing instructions: a memory that tells how to answer a kind of request ("Always include
version numbers when I ask about software dependencies", "Whenever I ask about deadlines,
format dates month-day-year", "Never use jargon when I ask for a summary").

Such a memory applies whenever a later context asks about that kind of thing, and that context
rarely shares its words: "Which libraries are used in this project?" says nothing of version
numbers. So the request it applies to, its condition ("software dependencies"), is kept on the
node (``applies_when``, with ``standing_in``, its namespace, which only instructions carry and an
index holds, so that a namespace's rules are found without reading the namespace),
derived from the content wherever the content is written: created, updated by a write decision,
imported, and once for the memories a store held before (`write.migrate.standing`). Recall
matches a context against the conditions (`recall.standing`).

What counts, by rules only (no model): an imperative sentence, one that opens with a directive
(always, never, don't, do not, make sure, be sure, remember to, avoid, only, please ...) and
holds a condition clause of the person's request ("when I ask about X", "whenever we discuss
X", "if I request X"), or one that opens with the condition and goes on with a directive
("When I ask about X, always ..."). A statement about oneself ("I always smile when I talk
about my kids") is not an instruction: it opens with its subject.
"""

from __future__ import annotations

import re
from typing import Any

# The longest condition kept, and the longest sentence read as an instruction: instructions
# are short; a long sentence holding "when I ask" is a story or an explanation.
MAX_CONDITION_CHARS = 200
MAX_SENTENCE_CHARS = 400

_A = "['’]"
_DIRECTIVE = (
    rf"(?:please\s+)?(?:always|never|don{_A}?t|do\s+not|make\s+sure|be\s+sure|remember\s+to"
    r"|avoid|only|stop|use|include|format|keep|give|provide|show|add|answer|respond|reply"
    r"|write|explain|list|mention|start|end|mark|put|prefer)\b"
)
# The person's request: "when I ask about", "whenever we discuss", "if I request", "any time I
# need help with".
_REQUEST = (
    r"(?:when(?:ever)?|if|any\s*time|each\s+time|every\s+time)\s+(?:I|we)\s+"
    r"(?:am\s+|are\s+)?(?:ask|asks|asking|request|requesting|inquire|inquiring|need|want"
    r"|talk|talking|discuss|discussing|bring\s+up|mention|work|working|look|looking|query)"
    r"(?:\s+(?:you\s+)?(?:about|for|on|regarding|into|at|with|to|help\s+with|advice\s+on))*\s+"
)
# The condition runs to the end of its clause: a comma, a semicolon, a dash or the sentence end.
_CONDITION = r"(?P<condition>[^,;:.!?\n–—]{2,})"
# What may open an instruction before its directive or condition: "Actually, always ...", "From
# now on, never ...", "Oh, and when I ask ...".
_OPENING = (
    r"(?:(?:actually|also|and|so|oh|ok|okay|hey|btw|from\s+now\s+on|going\s+forward"
    r"|in\s+(?:the\s+)?future|one\s+more\s+thing)\b[\s,:-]*)*"
)
_DIRECTIVE_FIRST = re.compile(rf"^{_OPENING}{_DIRECTIVE}.*?\b{_REQUEST}{_CONDITION}", re.IGNORECASE)
_CONDITION_FIRST = re.compile(rf"^{_OPENING}{_REQUEST}{_CONDITION},\s*{_DIRECTIVE}", re.IGNORECASE)
# "User: ...", "Jon: ...": a speaker label before the text.
_SPEAKER = re.compile(r"^[A-Za-z][\w .'-]{0,40}:\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_SPACE = re.compile(r"\s+")


def condition(content: str) -> str | None:
    """The request ``content`` is a standing instruction for (its first one), or None."""
    text = _SPEAKER.sub("", content.strip(), count=1)
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip().strip("*_\"'` ")
        if not sentence or len(sentence) > MAX_SENTENCE_CHARS:
            continue
        found = _DIRECTIVE_FIRST.search(sentence) or _CONDITION_FIRST.search(sentence)
        if found:
            clause = _SPACE.sub(" ", found["condition"]).strip()
            if clause:
                return clause[:MAX_CONDITION_CHARS]
    return None


def props(namespace: str, content: str) -> dict[str, Any]:
    """The node properties a memory of ``namespace`` saying ``content`` gets: its condition and
    ``standing_in`` (the namespace) when it is a standing instruction, else both null (a write
    that replaces the content removes them)."""
    found = condition(content)
    return {"applies_when": found, "standing_in": namespace if found else None}
