"""Ingest throughput: one LoCoMo conversation through the episode log with the offline extractor
and decider, on a fresh embedded engine. Prints turns/s.

    .venv/bin/python bench/ingest.py [--conversation 0] [--data-dir /tmp/hg-bench-ingest]
        [--transcript]

--transcript sends it as a platform does: batches of 100 messages without turn indices (the
server appends them), every fifth turn followed by an assistant tool call and its result.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from dataclasses import replace  # noqa: E402

from bench import graph  # noqa: E402
from hippograph.api.cli_ingest import CHUNK, locomo_turns  # noqa: E402
from hippograph.graph.model import ToolCall, ToolResult  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.write import episodes  # noqa: E402
from hippograph.graph.write.tools import ExtractionConfig  # noqa: E402

DATA = Path(os.environ.get("LOCOMO_PATH", "/work/shared/data/locomo/locomo-dev.json"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversation", default="0")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--transcript", action="store_true", help="messages with tool calls")
    graph.add_arguments(parser)
    args = parser.parse_args()
    turns = locomo_turns(json.loads(DATA.read_text(encoding="utf-8")), args.conversation)
    chunk = CHUNK
    if args.transcript:
        turns, chunk = with_tools(turns), 100
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hg-bench-ingest-"))
    rt = Runtime.open(graph.settings(args, data_dir=data_dir), attach=False)
    try:
        config = ExtractionConfig()  # offline extractor and decider
        actions: dict[str, int] = {}
        started = time.perf_counter()
        for start in range(0, len(turns), chunk):
            result = episodes.ingest(
                rt.store, rt.embedder, "bench", turns[start : start + chunk], policy=rt.policy,
                config=config, flush=start + chunk >= len(turns),
            )  # fmt: skip
            for action, n in result.actions.items():
                actions[action] = actions.get(action, 0) + n
        elapsed = time.perf_counter() - started
        memories = rt.store.read("memory/count", namespace="bench", statuses=["active"])
        print(f"conversation {args.conversation}: {len(turns)} turns in {elapsed:.1f}s")
        print(f"ingest throughput: {len(turns) / elapsed:.1f} turns/s (offline extractor)")
        print(f"decisions: {json.dumps(actions, sort_keys=True)}; "
              f"active memories: {memories[0]['count']}")  # fmt: skip
    finally:
        rt.close()
        if args.data_dir is None:
            shutil.rmtree(data_dir, ignore_errors=True)


def with_tools(turns: list[episodes.NewTurn]) -> list[episodes.NewTurn]:
    """The turns without indices, every fifth followed by a tool call and its result."""
    out: list[episodes.NewTurn] = []
    for i, turn in enumerate(turns):
        out.append(replace(turn, turn_index=None))
        if i % 5 == 4:
            call = ToolCall(id=f"call_{i}", name="lookup", arguments=json.dumps({"q": turn.text}))
            out.append(episodes.NewTurn(session_id=turn.session_id, role="assistant",
                                        tool_calls=(call,)))  # fmt: skip
            out.append(episodes.NewTurn(session_id=turn.session_id, role="tool", tool_results=(
                ToolResult(call_id=call.id, content=f"found {len(turn.text)} characters"),)))  # fmt: skip
    return out


if __name__ == "__main__":
    main()
