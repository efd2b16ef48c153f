"""Fact extraction: the offline extractor, and the LLM path against a real local HTTP server
that speaks the OpenAI chat-completions API."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from hippograph.graph.errors import ConfigError, LLMError
from hippograph.graph.models.llm import ChatClient, LLMConfig, parse_json_content
from hippograph.graph.write.extract import (
    DEFAULT_CONFIDENCE,
    EXPLICIT_CONFIDENCE,
    MAX_CONTENT_CHARS,
    ExtractedFact,
    TurnText,
    extract_offline,
    is_filler,
)
from hippograph.graph.write.extract_llm import extract_llm

SAID_AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def turn(text: str, speaker: str = "Caroline", *, index: int = 4) -> TurnText:
    return TurnText(
        speaker=speaker, text=text, timestamp=SAID_AT, session_id="s1", turn_index=index
    )


def contents(text: str, speaker: str = "Caroline") -> list[str]:
    return [fact.content for fact in extract_offline(turn(text, speaker))]


# ---------------------------------------------------------------- offline


@pytest.mark.parametrize(
    "text", ["Hey!", "Thanks!", "lol", "Hey Mel!", "thank you so much!!", "👍", "  "]
)
def test_pure_fillers_yield_nothing(text: str) -> None:
    assert extract_offline(turn(text)) == []


@pytest.mark.parametrize(
    "text",
    ["Yes", "42", "How was your weekend?", "hmm, maybe later", "Paris!", "def f(x): return x"],
)
def test_every_other_turn_yields_an_attributed_fact(text: str) -> None:
    assert contents(text) == [f"Caroline: {text}"]
    assert not is_filler(text)


def test_whole_turn_fact_keeps_speaker_time_and_source() -> None:
    facts = extract_offline(turn("I went to the support group yesterday"))

    assert facts == [
        ExtractedFact(
            content="Caroline went to the support group yesterday",
            memory_type="fact",
            confidence=DEFAULT_CONFIDENCE,
            tags=(),
            event_time=datetime(2023, 5, 7, 13, 56, tzinfo=UTC),
            source_turns=(4,),
        )
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I love hiking", "Melanie loves hiking"),
        ("I watch horror movies on Fridays.", "Melanie watches horror movies on Fridays."),
        ("I study pottery at night.", "Melanie studies pottery at night."),
        (
            "I have two cats named Oliver and Bailey.",
            "Melanie has two cats named Oliver and Bailey.",
        ),
        ("I'm moving to Paris in June.", "Melanie is moving to Paris in June."),
        ("I’ve been painting since 2019.", "Melanie has been painting since 2019."),
        ("I'll run the marathon in October.", "Melanie will run the marathon in October."),
        ("I don't eat meat anymore.", "Melanie doesn't eat meat anymore."),
        ("I really enjoy reading fantasy novels.", "Melanie really enjoys reading fantasy novels."),
        ("I visited the Louvre with the kids.", "Melanie visited the Louvre with the kids."),
        ("So I went camping at the lake.", "So Melanie went camping at the lake."),
        ("I love hiking with my kids.", "Melanie: I love hiking with my kids."),
        ("My sister visited me last week.", "Melanie: My sister visited me last week."),
        ("I dunno what happened there.", "Melanie: I dunno what happened there."),
        ("We adopted a dog from the shelter.", "Melanie: We adopted a dog from the shelter."),
        # "my" opening a sentence: the speaker's, unless "I" or "my" comes again
        ("My birthday is on 14 March.", "Melanie's birthday is on 14 March."),
        ("My sister and I went hiking.", "Melanie: My sister and I went hiking."),
    ],
)
def test_first_person_is_told_about_the_speaker(text: str, expected: str) -> None:
    assert contents(text, "Melanie") == [expected]


def test_independent_sentences_split_and_dependent_ones_stay() -> None:
    text = (
        "Hey Caroline! I went to a pride parade last weekend. It was so empowering, "
        "honestly. Btw my daughter just started violin lessons. She loves it!"
    )
    assert contents(text, "Melanie") == [
        "Melanie went to a pride parade last weekend. It was so empowering, honestly.",
        "Btw Melanie's daughter just started violin lessons. She loves it!",
    ]


def test_leading_question_waits_for_the_statement() -> None:
    assert contents("How are you? I adopted a puppy named Max.") == [
        "Caroline: How are you? I adopted a puppy named Max."
    ]


def test_abbreviations_do_not_split() -> None:
    assert contents("I saw Dr. Smith about my knee, e.g. the MRI results.") == [
        "Caroline: I saw Dr. Smith about my knee, e.g. the MRI results."
    ]


@pytest.mark.parametrize(
    ("text", "memory_type", "tags"),
    [
        ("Never push to main on Fridays.", "negative", ("negative",)),
        ("I prefer tea over coffee.", "preference", ("preference",)),
        ("I don't like mushrooms.", "preference", ("preference", "negative")),
        ("Actually, the party is on Saturday.", "correction", ("correction",)),
        ("Remember that the wifi password changed.", "fact", ("remember",)),
        ("The library opens at nine on weekdays.", "fact", ()),
    ],
)
def test_type_confidence_and_tags_come_from_signals(
    text: str, memory_type: str, tags: tuple[str, ...]
) -> None:
    [fact] = extract_offline(turn(text))
    assert (fact.memory_type, fact.tags) == (memory_type, tags)
    assert fact.confidence == (EXPLICIT_CONFIDENCE if tags else DEFAULT_CONFIDENCE)


def test_procedure_stays_one_fact() -> None:
    text = "To release:\n1. Bump the version\n2. Tag the commit\n3. Push the tag"

    [fact] = extract_offline(turn(text, "Bob"))

    assert fact.content == f"Bob: {text}"
    assert fact.memory_type == "procedure"
    assert fact.confidence == EXPLICIT_CONFIDENCE


def test_relative_days_shift_the_event_time() -> None:
    def when(text: str) -> datetime | None:
        return extract_offline(turn(text))[0].event_time

    assert when("I'll call the plumber tomorrow.") == datetime(2023, 5, 9, 13, 56, tzinfo=UTC)
    assert when("We moved here two weeks ago.") == datetime(2023, 4, 24, 13, 56, tzinfo=UTC)
    assert when("The dentist appointment went well.") == SAID_AT
    undated = TurnText("Caroline", "I went out yesterday", None, "s1", 0)
    assert extract_offline(undated)[0].event_time is None


def test_long_turns_are_cut_into_pieces_within_the_limit() -> None:
    books = ", ".join(f"book number {i}" for i in range(300))
    facts = extract_offline(turn(f"I keep a reading list: {books}."))

    assert len(facts) == 3
    assert all(len(fact.content) <= MAX_CONTENT_CHARS for fact in facts)
    assert facts[0].content.startswith("Caroline keeps a reading list: book number 0, ")
    assert facts[1].content.startswith("Caroline: book number ")
    assert sum(fact.content.count("book number") for fact in facts) == 300


# ---------------------------------------------------------------- LLM: a real local endpoint


@dataclass
class Endpoint:
    """What the fake endpoint answers next, and what it was sent."""

    url: str = ""
    status: int = 200
    content: str = '{"facts": []}'
    raw_body: bytes | None = None
    delay_s: float = 0.0
    requests: list[tuple[str, dict[str, str], object]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def body(self) -> bytes:
        if self.raw_body is not None:
            return self.raw_body
        if self.status >= 400:
            return b'{"error": {"message": "upstream exploded", "type": "server_error"}}'
        message = {"role": "assistant", "content": self.content}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return json.dumps(
            {"id": "chatcmpl-1", "object": "chat.completion", "choices": [choice]}
        ).encode()


def _handler(endpoint: Endpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            sent = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            endpoint.requests.append((self.path, dict(self.headers.items()), sent))
            if endpoint.delay_s:
                endpoint.release.wait(endpoint.delay_s)
            body = endpoint.body()
            try:
                self.send_response(endpoint.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting (timeout test)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    state = Endpoint()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    # A short poll interval keeps shutdown() from adding half a second to every test.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield state
    state.release.set()
    server.shutdown()
    server.server_close()
    thread.join()


TURNS = [
    TurnText("Caroline", "I went to the LGBTQ support group yesterday.", SAID_AT, "s1", 7),
    TurnText("Melanie", "That's great! I'm painting a sunrise for my kids.", SAID_AT, "s1", 8),
]
VALID_FACTS = [
    {
        "content": "Caroline went to an LGBTQ support group on 7 May 2023.",
        "memory_type": "fact",
        "confidence": 0.95,
        "tags": ["support-group", "lgbtq"],
        "event_time": "2023-05-07",
        "source_turns": [7],
    },
    {
        "content": "Melanie is painting a sunrise for her kids.",
        "memory_type": "fact",
        "confidence": 1,
        "tags": [],
        "event_time": None,
        "source_turns": [8],
    },
]
EXPECTED = [
    ExtractedFact(
        content="Caroline went to an LGBTQ support group on 7 May 2023.",
        memory_type="fact",
        confidence=0.95,
        tags=("support-group", "lgbtq"),
        event_time=datetime(2023, 5, 7),
        source_turns=(7,),
    ),
    ExtractedFact(
        content="Melanie is painting a sunrise for her kids.",
        memory_type="fact",
        confidence=1.0,
        tags=(),
        event_time=None,
        source_turns=(8,),
    ),
]


def run(
    endpoint: Endpoint, *, api_key: str | None = "test-key", timeout_s: float = 5.0
) -> list[ExtractedFact]:
    config = LLMConfig(
        base_url=endpoint.url, model="tiny-json", api_key=api_key, timeout_s=timeout_s
    )
    with ChatClient(config) as client:
        return extract_llm(client, TURNS)


def test_valid_output_is_parsed_and_the_request_is_openai_shaped(endpoint: Endpoint) -> None:
    endpoint.content = json.dumps({"facts": VALID_FACTS})

    assert run(endpoint) == EXPECTED

    [(path, headers, sent)] = endpoint.requests
    assert path == "/v1/chat/completions"
    assert headers["Authorization"] == "Bearer test-key"
    assert isinstance(sent, dict)
    assert sent["model"] == "tiny-json"
    assert sent["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    assert "JSON" in sent["messages"][0]["content"]
    assert (
        "[7] 2023-05-08T13:56:00+00:00 (session s1) Caroline: I went to the LGBTQ"
        in (sent["messages"][1]["content"])
    )


def test_fenced_json_and_no_api_key(endpoint: Endpoint) -> None:
    endpoint.content = "Here you go:\n```json\n" + json.dumps({"facts": VALID_FACTS}) + "\n```"

    assert run(endpoint, api_key=None) == EXPECTED
    assert "Authorization" not in endpoint.requests[0][1]


@pytest.mark.parametrize(
    "content",
    ['{"facts": [{"content": "x"', "Sure! Caroline went to a group.", "```json\n{oops}\n```"],
)
def test_malformed_json_raises(endpoint: Endpoint, content: str) -> None:
    endpoint.content = content
    with pytest.raises(LLMError, match="not JSON"):
        run(endpoint)


def _with(index: int, **changes: object) -> str:
    facts = [dict(fact) for fact in VALID_FACTS]
    facts[index].update(changes)
    return json.dumps({"facts": facts})


def _without(key: str) -> str:
    facts = [dict(fact) for fact in VALID_FACTS]
    del facts[1][key]
    return json.dumps({"facts": facts})


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        (_with(1, memory_type="opinion"), "facts[1].memory_type must be one of"),
        (_with(0, confidence=1.5), "facts[0].confidence must be between 0 and 1"),
        (_with(0, confidence="high"), "facts[0].confidence must be a number"),
        (_with(0, confidence=True), "facts[0].confidence must be a number"),
        (_without("content"), "facts[1] has missing keys ['content']"),
        (_without("source_turns"), "facts[1] has missing keys ['source_turns']"),
        (_with(0, content="   "), "facts[0].content must be a non-empty string"),
        (_with(0, content="x" * 2001), "facts[0].content is longer than 2000"),
        (_with(0, tags="lgbtq"), "facts[0].tags must be a list"),
        (_with(0, tags=["ok", 3]), "facts[0].tags[1] must be a string"),
        (_with(0, event_time="yesterday"), "facts[0].event_time is not ISO-8601"),
        (_with(0, source_turns=[99]), "facts[0].source_turns names 99"),
        (_with(0, source_turns=[]), "facts[0].source_turns must be a non-empty list"),
        (_with(0, speaker="Caroline"), "unexpected keys ['speaker']"),
        (json.dumps(VALID_FACTS), "only key is 'facts'"),
        (json.dumps({"facts": VALID_FACTS, "notes": "x"}), "only key is 'facts'"),
        (json.dumps({"facts": "none"}), "'facts' must be a list"),
    ],
)
def test_schema_violations_reject_the_whole_answer(
    endpoint: Endpoint, content: str, complaint: str
) -> None:
    endpoint.content = content
    with pytest.raises(LLMError) as caught:
        run(endpoint)
    assert complaint in str(caught.value)


def test_http_error_raises(endpoint: Endpoint) -> None:
    endpoint.status = 500
    with pytest.raises(LLMError, match="HTTP 500: .*upstream exploded"):
        run(endpoint)


def test_body_that_is_not_a_chat_completion_raises(endpoint: Endpoint) -> None:
    endpoint.raw_body = b'{"object": "list", "data": []}'
    with pytest.raises(LLMError, match=r"choices\[0\]\.message\.content"):
        run(endpoint)
    endpoint.raw_body = b"<html>bad gateway</html>"
    with pytest.raises(LLMError, match="response body is not JSON"):
        run(endpoint)


def test_timeout_raises(endpoint: Endpoint) -> None:
    endpoint.content = json.dumps({"facts": VALID_FACTS})
    endpoint.delay_s = 3.0
    with pytest.raises(LLMError, match="no answer within 0.3s"):
        run(endpoint, timeout_s=0.3)


def test_unreachable_endpoint_raises() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(LLMError, match="request failed"):
        run(Endpoint(url=f"http://127.0.0.1:{port}/v1"))


def test_no_turns_no_request(endpoint: Endpoint) -> None:
    with ChatClient(LLMConfig(base_url=endpoint.url, model="m")) as client:
        assert extract_llm(client, []) == []
    assert endpoint.requests == []


@pytest.mark.parametrize(
    ("changes", "variable"),
    [
        ({"base_url": "127.0.0.1:8080"}, "LLMConfig.base_url"),
        ({"model": " "}, "LLMConfig.model"),
        ({"timeout_s": 0}, "LLMConfig.timeout_s"),
    ],
)
def test_config_is_validated(changes: dict[str, object], variable: str) -> None:
    settings: dict[str, object] = {"base_url": "http://127.0.0.1:1/v1", "model": "m", **changes}
    with pytest.raises(ConfigError) as caught:
        LLMConfig(**settings)  # type: ignore[arg-type]
    assert caught.value.variable == variable


def test_parse_json_content_accepts_plain_and_fenced() -> None:
    assert parse_json_content('{"a": 1}', "t") == {"a": 1}
    assert parse_json_content('```\n{"a": [1, 2]}\n```', "t") == {"a": [1, 2]}
