"""What every resolver reads from the request context."""

from __future__ import annotations

from typing import cast

from strawberry.types import Info

from hippograph.graph.runtime import Runtime


def runtime(info: Info) -> Runtime:
    """The service's runtime (store, embedder, write policy, settings), opened in the lifespan."""
    return cast(Runtime, info.context["runtime"])
