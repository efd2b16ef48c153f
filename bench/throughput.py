"""Cold start and write throughput (issue: foundation).

    python bench/throughput.py [--batch 1000] [--repeat 5] [--warmup 3] [--texts memories|short]
                               [--json OUT] [--profile] [--no-cold-start]

1. Cold start: runs `hippograph serve` on a fresh data directory as a separate process and
   times from launch to the first answered GraphQL query (engine start, model load, schema).
2. Writes: `remember` of a batch of N memories through the library, next to the raw
   embedding throughput of the service's embedder (ONNX Runtime) on texts of the same shape in
   the same run (the physical limit of the write path on this machine); --repeat rounds, each
   round's ratio of the two (the embedding rate taken just before and after the batch) and
   their median reported, after --warmup batches that are shown but not counted (the JVM
   compiles the engine's write path). The texts are realistic memories of 15-30 words
   (default) or 6-word ones (--texts short). The raw rate of the same model on PyTorch is
   printed too: the issue's reference (~140 short texts/s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench.profiling import print_timings, statement_timings  # noqa: E402
from bench.server import serve  # noqa: E402
from hippograph.graph.model import NewMemory  # noqa: E402
from hippograph.graph.models.embedder import Embedder  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.write import writepath
from hippograph.settings import Settings  # noqa: E402


def cold_start() -> float:
    """Launch to the first answered GraphQL query, on a fresh data directory."""
    served = serve(Path(tempfile.mkdtemp(prefix="hippograph-cold-")))
    served.stop()
    return served.ready_s


PEOPLE = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
THINGS = ["tea", "jazz", "chess", "hiking", "sushi", "Python", "cycling", "poetry", "pottery",
          "the cello", "rock climbing", "Rust", "sourdough", "birdwatching", "Go", "salsa"]  # fmt: skip
MONTHS = ["January", "March", "May", "July", "September", "November"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
# Memories as agents write them: one fact, preference or procedure in 15-30 words. On these 2
# cores PyTorch embeds them at about the reference rate (~140 short texts/s).
TEMPLATES = [
    "{p} said that {t} has become a weekly habit since {m}, usually on {d} evenings after work, "
    "and that it helps {o} unwind ({n}, {salt})",
    "When planning anything with {p}, remember that {p} prefers {t} over {t2} and dislikes "
    "being scheduled before ten on a {d} ({n}, {salt})",
    "{p} asked the assistant to never book {t2} sessions in {m} again because the studio "
    "closed early twice and {o} lost the deposit ({n}, {salt})",
    "To set up {t} practice for {p}: check the calendar for {d}, reserve two hours, send "
    "{o} a reminder the evening before, and log it afterwards ({n}, {salt})",
    "{p} mentioned on {d} that {o} started {t} with {o2} in {m} and wants to try {t2} "
    "together before the end of the year ({n}, {salt})",
]


def texts(n: int, salt: str, *, shape: str = "memories") -> list[str]:
    """``n`` distinct texts: realistic memories (15-30 words), or ``short`` ones (6 words)."""
    if shape == "short":
        return [
            f"{PEOPLE[i % 8]} enjoys {THINGS[(i // 8) % 8]} on day {i} ({salt})" for i in range(n)
        ]
    out = []
    for i in range(n):
        who, other = PEOPLE[i % len(PEOPLE)], PEOPLE[(i * 7 + 3) % len(PEOPLE)]
        out.append(
            TEMPLATES[i % len(TEMPLATES)].format(
                p=who,
                o=other,
                o2=PEOPLE[(i * 5 + 1) % len(PEOPLE)],
                t=THINGS[(i // 5) % len(THINGS)],
                t2=THINGS[(i * 3 + 1) % len(THINGS)],
                m=MONTHS[(i // 3) % len(MONTHS)],
                d=DAYS[(i // 2) % len(DAYS)],
                n=i,
                salt=salt,
            )  # fmt: skip
        )
    return out


def torch_rate(batch: int, shape: str) -> float:
    """The raw embedding rate of the same model on PyTorch (sentence-transformers)."""
    embedder = Embedder(backend="torch").load()
    embedder.embed(texts(64, "warm-up", shape=shape))
    sample = texts(batch, "torch", shape=shape)
    t = time.perf_counter()
    embedder.embed(sample)
    return batch / (time.perf_counter() - t)


def embed_rate(rt: Runtime, sample: list[str]) -> float:
    t = time.perf_counter()
    rt.embedder.embed(sample)
    return len(sample) / (time.perf_counter() - t)


def writes(
    settings: Settings,
    batch: int,
    repeat: int,
    shape: str,
    *,
    warmup: int,
    profile: bool = False,
) -> tuple[list[float], list[float]]:
    """Per round: `remember` of a batch of fresh texts into a namespace of its own, and the raw
    embedding rate on fresh texts of the same shape just before and just after it (rates vary
    by a fifth from one batch to the next on 2 cores, so the rounds' medians are reported).
    The first ``warmup`` rounds are printed but not counted: the engine's write path runs
    interpreted until the JVM has compiled it (the first batch on a fresh engine runs at about
    60% of the embedding rate, the fourth at 85%). ``settings``: the graph written to."""
    rt = Runtime.open(settings, attach=False)
    embed_rates, write_rates = [], []
    try:
        rt.embedder.embed(texts(64, "warm-up", shape=shape))
        for n in range(warmup + repeat):
            # The embedding rate just before and just after the batch, averaged: this
            # machine's speed drifts within seconds, and the batch sits between the two.
            before = embed_rate(rt, texts(batch, f"embed {n}", shape=shape))
            items = [NewMemory(content=c) for c in texts(batch, f"write {n}", shape=shape)]
            timings = statement_timings() if profile else None
            t = time.perf_counter()
            results = writepath.remember(
                rt.store, rt.embedder, f"bench-{n}", items, policy=rt.policy
            )
            written = batch / (time.perf_counter() - t)
            after = embed_rate(rt, texts(batch, f"embed {n} after", shape=shape))
            assert sum(r.created for r in results) == batch, "every memory must be stored"
            label = f"warm-up {n + 1}" if n < warmup else f"round {n - warmup + 1}"
            print(
                f"{label}: embedding {(before + after) / 2:.0f} texts/s, "
                f"remember {written:.0f} memories/s ({100 * written / ((before + after) / 2):.0f}%)"
            )
            if n >= warmup:
                write_rates.append(written)
                embed_rates.append((before + after) / 2)
            if timings is not None:
                print_timings(timings)
    finally:
        rt.close()
    return embed_rates, write_rates


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="rounds (medians are reported)")
    parser.add_argument("--warmup", type=int, default=3, help="batches written first, not counted")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--profile", action="store_true", help="time each statement of the batch")
    parser.add_argument("--no-cold-start", action="store_true", help="only the write throughput")
    parser.add_argument("--texts", choices=["memories", "short"], default="memories")
    graph.add_arguments(parser)
    args = parser.parse_args()
    cold = None if args.no_cold_start else cold_start()
    if cold is not None:
        print(f"cold start to the first answered query: {cold:.1f} s")
    scratch = Path(tempfile.mkdtemp(prefix="hippograph-w-"))
    embed_rates, write_rates = writes(
        graph.settings(args, data_dir=scratch),
        args.batch,
        args.repeat,
        args.texts,
        warmup=args.warmup,
        profile=args.profile,
    )
    reference = torch_rate(args.batch, args.texts)
    embed_rate, write_rate = statistics.median(embed_rates), statistics.median(write_rates)
    # Each round's remember rate against the embedding rate measured just before it: this
    # machine's speed drifts by a fifth within minutes, so rounds are compared pairwise.
    ratios = [w / e for w, e in zip(write_rates, embed_rates, strict=True)]
    ratio = statistics.median(ratios)
    print(
        f"texts: {args.texts}; {statistics.mean(len(t.split()) for t in texts(args.batch, 'x', shape=args.texts)):.1f} words on average"
    )
    print(f"raw embedding throughput on PyTorch (the issue's reference): {reference:.0f} texts/s")
    print(
        f"raw embedding throughput of the service's embedder (median of {args.repeat}): "
        f"{embed_rate:.0f} texts/s"
    )
    print(
        f"remember throughput (batches of {args.batch}, median of {args.repeat}): "
        f"{write_rate:.0f} memories/s"
    )
    print(
        f"remember / embedding, round by round: {', '.join(f'{100 * r:.0f}%' for r in ratios)}; "
        f"median {100 * ratio:.0f}% of the embedding limit"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "cold_start_s": None if cold is None else round(cold, 2),
                    "texts": args.texts,
                    "torch_embed_per_s": round(reference, 1),
                    "embed_per_s": round(embed_rate, 1),
                    "remember_per_s": round(write_rate, 1),
                    "batch": args.batch,
                    "warmup_batches": args.warmup,
                    "ratio_median": round(ratio, 3),
                    "rounds": {
                        "embed_per_s": embed_rates,
                        "remember_per_s": write_rates,
                        "ratio": ratios,
                    },
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
