"""The failures of the conformance suite looked into, by scenario id: (class, cause). Class is
one of "Hippograph bug", "missing feature", "suite problem" (the cause quotes the suite's line).
docs/research/conformance.md has the run these come from."""

from __future__ import annotations

TRIAGED: dict[str, tuple[str, str]] = {
    "SCN-S-041": (
        "missing feature",
        "one entity per name in a namespace (uid = uuid5 of namespace and canonical name; "
        "resolution by name and alias): Mercury the object and Mercury the place are one "
        "node, and the second add_entity re-kinds it; homonyms need a disambiguation the "
        "resolver does not have",
    ),
    "SCN-P-001": (
        "suite problem",
        'asserts `conv.user_id == "alice" or conv.user_id is None`, but its own '
        "TCKConversation (tck/adapters/base_adapter.py) has no user_id field: AttributeError "
        "for every adapter",
    ),
}
