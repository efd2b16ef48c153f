"""Every string and list of a memory is bounded before any engine work (#21 part 2), and an
error quoting what was sent quotes neither a secret nor megabytes."""

from __future__ import annotations

import pytest

from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import NewMemory, Source

LIMITS = validate.Limits()
BIG = "p" * 10_000_000


@pytest.mark.parametrize(
    ("item", "field", "limit"),
    [
        (NewMemory(content="x", scope="project", project=BIG), "memory.project", 256),
        (NewMemory(content="x", session_id=BIG), "memory.sessionId", 256),
        (NewMemory(content="x", source=Source(session_id=BIG)), "memory.source.sessionId", 256),
        (NewMemory(content="x", source=Source(messages=BIG)), "memory.source.messages", 32768),
        (NewMemory(content="x", source=Source(snippet=BIG)), "memory.source.snippet", 2000),
        (NewMemory(content="x", steps=(BIG,)), "memory.steps[0]", 2000),
        (NewMemory(content="x", tags=("t",) * 101), "memory.tags", 100),
        (NewMemory(content="x", source=Source(file_paths=("a",) * 101)),
         "memory.source.filePaths", 100),
    ],
)  # fmt: skip
def test_oversized_fields_name_the_field_and_the_limit(
    item: NewMemory, field: str, limit: int
) -> None:
    with pytest.raises(InvalidInput) as caught:
        validate.new_memory(item, LIMITS)
    assert caught.value.field == field
    assert caught.value.limit == limit
    assert len(caught.value.message) < 200


def test_an_id_error_quotes_no_secret_and_no_megabytes() -> None:
    key = "sk-proj-Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
    with pytest.raises(InvalidInput) as caught:
        validate.memory_id(key)
    assert key not in caught.value.message
    assert "[REDACTED:openai_api_key]" in caught.value.message
    with pytest.raises(InvalidInput) as huge:
        validate.memory_id(BIG)
    assert huge.value.limit == 64 and len(huge.value.message) < 100
