"""Agent runs over the API: recorded through the typed clients (sync against the app, async
against a real server), typed errors naming the field, secrets redacted and large results
summarised, a finished run's experience in a later task's context bundle, and the MCP tools an
agent calls as it works."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import anyio
import pytest
from mcp import Client as McpClient
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.client import AsyncClient, Client, InvalidInput, NewMemory, NotFound
from hippograph.graph.runtime import Runtime
from tests.api.test_mcp import mcp_url, ok, over_http  # noqa: F401 - the module's fixture
from tests.live_server import serve_in_thread

TOKEN = "ghp_" + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa98"


@pytest.fixture
def client(runtime: Runtime, namespace: str) -> Iterator[Client]:
    with TestClient(create_app(runtime=runtime)) as http:
        yield Client("/graphql", namespace=namespace, http=http)


def test_a_run_recorded_through_the_client_comes_back_whole(client: Client) -> None:
    run = client.start_run("Convert the invoice PDF to DOCX", session_id="s1", agent="clerk")
    assert (run.task, run.session, run.agent, run.status) == (
        "Convert the invoice PDF to DOCX", "s1", "clerk", "running",
    )  # fmt: skip
    step = client.add_step(run.id, thought="Try plain text extraction", action="extract")
    assert step.n == 1
    call = client.add_tool_call(run.id, "pdftotext", {"file": "invoice.pdf", "key": TOKEN},
                                status="running")  # fmt: skip
    assert call.status == "running" and TOKEN not in json.dumps(call.arguments)
    ended = client.update_tool_call(call.id, status="failure", error="the tables were lost",
                                    duration_ms=35)  # fmt: skip
    assert (ended.status, ended.duration_ms) == ("failure", 35)
    client.add_step(run.id, action="ocr")
    big = client.add_tool_call(run.id, "ocrmypdf", {"file": "invoice.pdf"},
                               result={"text": "x" * 20_000}, status="success")  # fmt: skip
    assert big.result["truncated"]["chars"] > 20_000
    done = client.finish_run(run.id, success=True, outcome="invoice.docx")
    assert done.distiller == "rules" and done.run.status == "finished"
    assert {(e.kind, e.action) for e in done.experience} == {("experience", "ADD"),
                                                             ("warning", "ADD")}  # fmt: skip
    whole = client.run(run.id)
    assert whole is not None and whole.outcome == "invoice.docx" and whole.success is True
    assert [[c.tool for c in s.tool_calls] for s in whole.steps] == [["pdftotext"], ["ocrmypdf"]]
    assert whole.steps[0].tool_calls[0].error == "the tables were lost"
    assert set(whole.experience) == {e.memory_id for e in done.experience}
    for made in done.experience:  # each memory leads back to the run it was distilled from
        assert [r.id for r in client.memory_runs(made.memory_id)] == [run.id]
    plain = client.remember(NewMemory(content="The printer on floor 2 takes A3 paper"))[0]
    assert client.memory_runs(plain.memory.id) == []
    assert [r.id for r in client.runs(session_id="s1")] == [run.id]
    assert client.runs(session_id="s2") == []
    assert client.run(str(uuid.uuid4())) is None
    similar = client.similar_runs("turn an invoice PDF into Word", k=3)
    assert similar[0].run.id == run.id and similar[0].score > 0.5
    stats = {s.tool: s for s in client.tool_stats()}
    assert (stats["pdftotext"].failures, stats["pdftotext"].success_rate) == (1, 0.0)
    assert stats["pdftotext"].common_errors[0].error == "the tables were lost"
    assert [s.tool for s in client.tool_stats("ocrmypdf")] == ["ocrmypdf"]

    bundle = client.context("Convert the supplier invoice PDF into DOCX", budget=800)
    assert "ocrmypdf" in bundle.text and "pdftotext" in bundle.text


def test_bad_input_is_a_typed_error_naming_the_field(client: Client) -> None:
    with pytest.raises(InvalidInput) as long_task:
        client.start_run("t" * 2001)
    assert long_task.value.field == "task" and long_task.value.limit == 2000
    assert client.runs() == []
    run = client.start_run("Deploy the docs")
    with pytest.raises(InvalidInput) as empty:
        client.add_step(run.id)
    assert empty.value.field == "thought"
    with pytest.raises(InvalidInput) as negative:
        client.add_tool_call(run.id, "rsync", status="success", duration_ms=-5)
    assert negative.value.field == "durationMs"
    with pytest.raises(InvalidInput) as not_uuid:
        client.add_step("nope", action="x")
    assert not_uuid.value.field == "runId"
    with pytest.raises(NotFound):
        client.update_tool_call(str(uuid.uuid4()), status="success")
    assert client.run(run.id).call_count == 0  # type: ignore[union-attr]


def test_the_async_client_records_a_run_over_a_real_server(
    runtime: Runtime, namespace: str
) -> None:
    async def main(url: str) -> None:
        async with AsyncClient(url, namespace=namespace) as client:
            run = await client.start_run("Rotate the TLS certificates")
            await client.add_step(run.id, action="renew")
            call = await client.add_tool_call(run.id, "certbot", {"domain": "example.org"})
            await client.update_tool_call(call.id, status="success", duration_ms=1200)
            done = await client.finish_run(run.id, success=True)
            assert done.run.success is True
            whole = await client.run(run.id)
            assert whole is not None and whole.steps[0].tool_calls[0].status == "success"
            assert [r.id for r in await client.runs()] == [run.id]
            assert (await client.similar_runs("renew TLS certs"))[0].run.id == run.id
            assert (await client.tool_stats("certbot"))[0].mean_duration_ms == 1200

    with serve_in_thread(create_app(runtime=runtime)) as base:
        anyio.run(main, f"{base}/graphql")


def test_an_agent_records_its_run_through_the_mcp_tools(
    mcp_url: str,  # noqa: F811 - the fixture imported above
    namespace: str,
) -> None:
    async def work(client: McpClient) -> None:
        run = (await ok(client, "start_run", {"task": "Fix the flaky export test"}))["startRun"]
        await ok(client, "add_step", {"runId": run["id"], "action": "rerun CI"})
        call = (await ok(client, "add_tool_call", {
            "runId": run["id"], "tool": "ci_rerun", "arguments": {"job": "export"},
            "status": "FAILURE", "error": "still flaky",
        }))["addToolCall"]  # fmt: skip
        assert call["status"] == "FAILURE" and call["arguments"] == {"job": "export"}
        await ok(client, "add_step", {"runId": run["id"], "action": "pin the timezone"})
        pending = (await ok(client, "add_tool_call", {"runId": run["id"], "tool": "edit_file",
                                                      "arguments": {"env": "TZ=UTC"}}))  # fmt: skip
        assert pending["addToolCall"]["status"] == "PENDING"
        await ok(client, "update_tool_call", {"id": pending["addToolCall"]["id"],
                                              "status": "SUCCESS", "durationMs": 40})  # fmt: skip
        done = (await ok(client, "finish_run", {"runId": run["id"], "success": True}))["finishRun"]
        assert {e["kind"] for e in done["experience"]} == {"experience", "warning"}
        whole = (await ok(client, "get_run", {"id": run["id"]}))["run"]
        assert [s["n"] for s in whole["steps"]] == [1, 2]
        assert whole["steps"][1]["toolCalls"][0]["status"] == "SUCCESS"
        similar = await ok(client, "similar_runs", {"task": "export test is flaky"})
        assert similar["similarRuns"][0]["run"]["id"] == run["id"]
        stats = (await ok(client, "tool_stats", {"tool": "ci_rerun"}))["toolStats"]
        assert stats[0]["commonErrors"] == [{"error": "still flaky", "count": 1}]

    over_http(mcp_url, namespace, work)
