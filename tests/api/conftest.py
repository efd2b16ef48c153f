"""What the API tests share: the real app over the suite's runtime, and one GraphQL POST."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.graph.runtime import Runtime


@pytest.fixture
def client(runtime: Runtime) -> Iterator[TestClient]:
    """The app on the test runtime, its lifespan run (TestClient as a context manager)."""
    with TestClient(create_app(runtime=runtime)) as c:
        yield c


def post(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    """One GraphQL request; the HTTP status must be 200 (errors are in the body)."""
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    return dict(response.json())
