"""The integrations' tests run each framework against the real app served on a loopback port
(uvicorn in a thread, on the session's embedded engine): the frameworks' clients speak HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hippograph.api.app import create_app
from hippograph.graph.runtime import Runtime
from tests.live_server import serve_in_thread


@pytest.fixture(scope="module")
def base_url(arcadedb_runtime: Runtime) -> Iterator[str]:
    with serve_in_thread(create_app(runtime=arcadedb_runtime)) as base:
        yield base


@pytest.fixture
def graphql_url(base_url: str, namespace: str) -> str:
    """The GraphQL endpoint; each test works in its own ``namespace``."""
    return f"{base_url}/graphql"
