"""Every Hippograph error class survives the trip server -> GraphQL JSON -> client: same class,
message and extensions (like httpx's test that every httpcore exception is mapped)."""

from __future__ import annotations

from graphql import GraphQLError

from hippograph.api.errors import MASKED_MESSAGE, to_graphql
from hippograph.client.errors import RemoteError, from_graphql
from hippograph.graph import errors as e

SAMPLES: dict[type[e.HippographError], e.HippographError] = {
    e.InvalidInput: e.InvalidInput("k", "must be at most 200", limit=200),
    e.BatchTooLarge: e.BatchTooLarge("memories", "at most 1000 items", limit=1000),
    e.NotFound: e.NotFound("memory", "9b1f", field="memoryId"),
    e.Conflict: e.Conflict("already linked"),
    e.LockHeld: e.LockHeld("consolidate", "host:12", "2026-01-01T00:00:00Z"),
    e.SupersedeCycle: e.SupersedeCycle("9b1f", "a2c4"),
    e.TurnConflict: e.TurnConflict("s1", 3, "ab" * 32, "cd" * 32),
    e.ConfigError: e.ConfigError("HIPPOGRAPH_MAX_K", "0 is outside the allowed range 1..10000"),
    e.SecretRejected: e.SecretRejected("content", ["aws_key", "jwt"]),
    e.DataDirInUse: e.DataDirInUse("data is held by pid 12"),
    e.GraphUnavailable: e.GraphUnavailable("bolt://x:7687 refused the connection"),
    e.QueryTimeout: e.QueryTimeout("the graph statement ran past 60 s", timeout_s=60.0),
    e.QueryNotFound: e.QueryNotFound("memory/nope"),
    e.LLMError: e.LLMError("the endpoint returned 500"),
    e.Overloaded: e.Overloaded("next-turn mode", "256 sessions are already waiting"),
    e.Unauthenticated: e.Unauthenticated("the API key is not valid: unknown, rotated or revoked"),
    e.Forbidden: e.Forbidden("remember: key 0a1b (role read, namespaces a) may not write 'b'"),
    e.RateLimited: e.RateLimited("0a1b", 60, 2),
}


def _all_subclasses(cls: type[e.HippographError]) -> set[type[e.HippographError]]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _all_subclasses(sub)
    return found


def _over_the_wire(error: e.HippographError) -> dict[str, object]:
    raised = GraphQLError(error.message, path=["field"], original_error=error)
    return dict(to_graphql(raised).formatted)


def test_every_error_class_has_a_sample() -> None:
    mine = {c for c in _all_subclasses(e.HippographError) if c.__module__ == e.__name__}
    assert mine == set(SAMPLES)


def test_each_error_comes_back_as_its_class_with_its_fields() -> None:
    for cls, sample in SAMPLES.items():
        back = from_graphql(_over_the_wire(sample))
        assert type(back) is cls, cls
        assert back.message == sample.message, cls
        assert back.extensions() == sample.extensions(), cls


def test_a_masked_error_is_a_remote_error_with_code_internal() -> None:
    back = from_graphql(_over_the_wire(e.HippographError("boom")))
    assert isinstance(back, RemoteError)
    assert back.code == "INTERNAL" and back.message == MASKED_MESSAGE


def test_an_error_from_a_newer_server_keeps_its_code_and_details() -> None:
    back = from_graphql(
        {"message": "slow down", "extensions": {"code": "QUOTA_EXCEEDED", "retryAfter": 3}}
    )
    assert isinstance(back, RemoteError)
    assert back.extensions() == {"code": "QUOTA_EXCEEDED", "retryAfter": 3}
    missing_fields = from_graphql({"message": "x", "extensions": {"code": "NOT_FOUND"}})
    assert isinstance(missing_fields, RemoteError) and missing_fields.code == "NOT_FOUND"
