"""What every resolver reads from the request context."""

from __future__ import annotations

from typing import cast

from strawberry.types import Info

from hippograph.graph import validate
from hippograph.graph.runtime import Runtime
from hippograph.graph.text import privacy


def runtime(info: Info) -> Runtime:
    """The service's runtime (store, embedder, write policy, settings), opened in the lifespan."""
    return cast(Runtime, info.context["runtime"])


def stored_reason(rt: Runtime, reason: str) -> str:
    """A reason a caller gives (forget, supersede, mergeEntities) as stored: bounded, and
    through the privacy filter in the configured mode."""
    bounded = validate.optional_text(reason, "reason", validate.MAX_ITEM_CHARS) or ""
    return privacy.apply(bounded, field="reason", mode=rt.settings.write.privacy_mode)
