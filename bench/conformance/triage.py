"""The failures of the conformance suite looked into, by scenario id: (class, cause). Class is
one of "Hippograph bug", "missing feature", "suite problem" (the cause quotes the suite's line).
docs/research/conformance.md has the run these come from."""

from __future__ import annotations

TRIAGED: dict[str, tuple[str, str]] = {}
