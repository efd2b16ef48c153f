"""Statements that tell a change ("our return flight is now on the 23rd", "they moved me to
Friday"), and questions that ask for the present state rather than the past: shared by the
write decider (`text.statements`), which supersedes on them when it can name the attribute,
and recall (`recall.surface`), which puts such a statement above the older one it updates
when both are found and it could not."""

from __future__ import annotations

import re

# A change of state said in passing. "used to" tells the old state is over.
CHANGE_CUE = re.compile(
    r"\b(?:now|no\s+longer|not\s+anymore|any\s?more|moved\s+to|moving\s+to|switched\s+to"
    r"|changed\s+to|started\s+working|starts?\s+working|joined|quit|became|has\s+become"
    r"|these\s+days|nowadays|currently|since\s+(?:last|this)|used\s+to|from\s+now\s+on)\b",
    re.IGNORECASE,
)
# What announces an update of a plan or a value besides the state cues above.
_UPDATE = re.compile(
    r"\b(?:moved|rescheduled|postponed|pushed\s+(?:back|to)|brought\s+forward|extended|shortened"
    r"|changed|switched|replaced|migrated|instead|updated?|correction|actually|no\s+longer"
    r"|cancel+ed|called\s+off|raised|lowered|increased|reduced|bumped|is\s+done|finished\s+moving"
    r"|change\s+of\s+plans?|new\s+(?:date|time|plan|number|address))\b",
    re.IGNORECASE,
)
# A question about how things were, not how they are: the older statement is its answer.
_ASKS_PAST = re.compile(
    r"\b(?:did|was|were|used\s+to|before|originally|at\s+first|previous\w*|earlier|formerly"
    r"|old|history|ever|back\s+then|initially|first)\b",
    re.IGNORECASE,
)


def is_change(text: str) -> bool:
    """The text tells a state that changed ("now works at", "no longer", "moved to")."""
    return CHANGE_CUE.search(text) is not None


def tells_update(text: str) -> bool:
    """The text tells a change of state, a plan or a value (``is_change`` or an update verb)."""
    return is_change(text) or _UPDATE.search(text) is not None


def asks_present(question: str) -> bool:
    """The question asks how things are (not how they were)."""
    return _ASKS_PAST.search(question) is None
