"""GraphiQL and its files, served by the app itself (api/web.py), through TestClient."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.web import GRAPHIQL_FILES, missing
from hippograph.graph.runtime import Runtime
from hippograph.settings import Settings

HTML = {"Accept": "text/html"}
HEALTH = "{ health { backend embedderLoaded } }"
WEB_DIR = Settings.from_env({}).server.web_dir
needs_npm = pytest.mark.skipif(
    bool(missing(WEB_DIR, GRAPHIQL_FILES)),
    reason=f"GraphiQL's npm files are not in {WEB_DIR}/node_modules: run `make install` (npm ci)",
)


def client_for(runtime: Runtime, **changes: object) -> TestClient:
    return TestClient(create_app(runtime.settings.with_(**changes), runtime=runtime))


@pytest.fixture
def client(runtime: Runtime) -> Iterator[TestClient]:
    with client_for(runtime) as c:
        yield c


@needs_npm
def test_graphiql_loads_only_files_of_this_server(client: TestClient) -> None:
    page = client.get("/graphql", headers=HTML)
    assert page.status_code == 200
    assert page.headers["content-security-policy"].startswith("default-src 'self';")
    urls = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    vendor = sorted(u for u in urls if u.startswith("/static/vendor/"))
    assert vendor == sorted(f"/static/vendor/{name}" for name in GRAPHIQL_FILES)
    assert "/static/pages/graphiql.js" in urls
    assert not [u for u in urls if "//" in u], "no URL of another host (a CDN)"
    for url in (u for u in urls if u.startswith("/")):
        served = client.get(url)
        assert served.status_code == 200, url
        kind = "text/css" if url.endswith(".css") else "text/javascript"
        assert served.headers["content-type"].startswith(kind), url
        assert len(served.content) > 50, url
    react = client.get("/static/vendor/react/umd/react.production.min.js").text
    assert "React" in react and "18.2.0" in react


@pytest.mark.parametrize(
    "path",
    [
        "graphiql/package.json",  # installed, but not listed
        "playwright-core/package.json",  # the test driver stays private
        "../package.json",
        "%2e%2e/package-lock.json",
    ],
)
def test_only_the_listed_npm_files_are_served(client: TestClient, path: str) -> None:
    assert client.get(f"/static/vendor/{path}").status_code == 404


def test_the_graphql_endpoint_is_unchanged(client: TestClient) -> None:
    posted = client.post("/graphql", json={"query": HEALTH}).json()
    assert posted["data"]["health"] == {"backend": "arcadedb", "embedderLoaded": True}
    got = client.get("/graphql", params={"query": HEALTH}).json()
    assert got == posted


def test_missing_npm_files_are_explained_not_left_loading(runtime: Runtime, tmp_path: Path) -> None:
    with client_for(runtime, web_dir=tmp_path) as client:
        page = client.get("/graphql", headers=HTML)
        assert page.status_code == 503
        assert "GraphiQL's files are not installed" in page.text
        assert "make install" in page.text and "npm ci" in page.text
        for name in GRAPHIQL_FILES:
            assert f"<li><code>{name}</code></li>" in page.text
        script = client.get("/static/vendor/graphiql/graphiql.min.js")
        assert script.status_code == 404
        assert "graphiql/graphiql.min.js is not installed. Run `make install`" in script.text
        posted = client.post("/graphql", json={"query": HEALTH}).json()
        assert posted["data"]["health"]["backend"] == "arcadedb"


def test_graphiql_can_be_turned_off(runtime: Runtime) -> None:
    with client_for(runtime, graphiql=False) as client:
        assert client.get("/graphql", headers=HTML).status_code == 404
        got = client.get("/graphql", params={"query": HEALTH}).json()
        assert got["data"]["health"]["backend"] == "arcadedb"
        posted = client.post("/graphql", json={"query": HEALTH}).json()
        assert posted["data"]["health"]["embedderLoaded"] is True


@needs_npm
def test_the_installed_versions_are_the_locked_ones() -> None:
    """npm ci installed exactly what web/package-lock.json pins (and package.json names)."""
    declared = json.loads((WEB_DIR / "package.json").read_text())
    lock = json.loads((WEB_DIR / "package-lock.json").read_text())["packages"]
    for name, version in {**declared["dependencies"], **declared["devDependencies"]}.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is not pinned: {version}"
        assert lock[f"node_modules/{name}"]["version"] == version
        installed = json.loads((WEB_DIR / "node_modules" / name / "package.json").read_text())
        assert installed["version"] == version
