"""Ingest throughput: one LoCoMo conversation through the episode log with the offline extractor
and decider, on a fresh embedded engine. Prints turns/s.

    .venv/bin/python bench/ingest.py [--conversation 0] [--data-dir /tmp/hg-bench-ingest]
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

from bench import graph  # noqa: E402
from hippograph.api.cli_ingest import CHUNK, locomo_turns  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.write import episodes  # noqa: E402
from hippograph.graph.write.tools import ExtractionConfig  # noqa: E402

DATA = Path(os.environ.get("LOCOMO_PATH", "/work/shared/data/locomo/locomo-dev.json"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversation", default="0")
    parser.add_argument("--data-dir", type=Path, default=None)
    graph.add_arguments(parser)
    args = parser.parse_args()
    turns = locomo_turns(json.loads(DATA.read_text(encoding="utf-8")), args.conversation)
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hg-bench-ingest-"))
    rt = Runtime.open(graph.settings(args, data_dir=data_dir), attach=False)
    try:
        config = ExtractionConfig()  # offline extractor and decider
        actions: dict[str, int] = {}
        started = time.perf_counter()
        for start in range(0, len(turns), CHUNK):
            result = episodes.ingest(
                rt.store, rt.embedder, "bench", turns[start : start + CHUNK], policy=rt.policy,
                config=config, flush=start + CHUNK >= len(turns),
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


if __name__ == "__main__":
    main()
