"""Cascade variants on a kept store: load the conversations once, then ask every question with
each variant of `CascadeConfig`, per category and per conversation.

    python bench/variants.py --data ../shared/data/locomo/locomo-dev.json --store DIR
        [--variant default anchors=0 unframe=0 ...] [--vector] [--pool] [--k 10] [--json OUT]
        [--limit N]

The first run loads each conversation into its own namespace of DIR as `bench/locomo.py` does
(``load``: turns, adjacency links, the vocabulary) and records what it loaded in DIR/loaded.json;
later runs with the same DIR ask at once. A variant is ``default`` or comma-separated
``field=value`` pairs over the default cascade (``anchors=0,unframe=0``). ``--vector`` adds the
exact vector baseline. ``--pool`` also ranks every candidate the first variant reached (its
whole pool, not only the top k) and reports evidence recall at 10, 30 and 100 and over the whole
pool: how much evidence ranking could still bring up, and how much never enters the candidates
(docs/research/recall.md, "Where multi-hop evidence stands"). ``--json`` writes every question's returned turns (up to ``--k``) per
variant, for offline analysis.

On the same store, a variant's figures repeat exactly from run to run, which a fresh store does
not give: its vector index answers a little differently each time it is built (LoCoMo dev
multi-hop 55.7-56.1 in full `bench/locomo.py` runs of one cascade). Compare variants here, then
confirm with `bench/locomo.py`. Compare runs that only ask: the run that loads asks with the
caches its writes warmed, and a few of its answers differ from any later run of the same code on
the same store (docs/research/recall.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import (
    baselines,  # noqa: E402
    graph,  # noqa: E402
)
from bench import locomo as locomo_bench  # noqa: E402
from bench import locomo_data as data  # noqa: E402
from hippograph.graph import transfer  # noqa: E402
from hippograph.graph.recall import retrieval  # noqa: E402
from hippograph.graph.recall.expand import spread  # noqa: E402
from hippograph.graph.recall.gather import gather  # noqa: E402
from hippograph.graph.recall.rank import rank  # noqa: E402
from hippograph.graph.recall.recall_config import CascadeConfig, field_types  # noqa: E402
from hippograph.graph.recall.recipes import DEFAULT_CASCADE  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402

KINDS = field_types()


def variant(spec: str) -> CascadeConfig:
    """``default``, or ``field=value[,field=value...]`` over the default cascade (a field by its
    own name, whatever its stage: ``anchors=0,unframe=0``)."""
    if spec == "default":
        return DEFAULT_CASCADE
    changes: dict[str, object] = {}
    for pair in spec.split(","):
        name, _, value = pair.partition("=")
        if name not in KINDS:
            raise SystemExit(f"variants: {name!r} is not a CascadeConfig field")
        kind = KINDS[name]
        changes[name] = value in ("1", "true", "True") if kind is bool else kind(value)
    return DEFAULT_CASCADE.changed(**changes)


# The pool's depths reported by --pool; the last is the whole pool.
POOL_DEPTHS = (10, 30, 100, 100_000)


def pool_turns(
    rt: Runtime, namespace: str, request: retrieval.RecallRequest, config: CascadeConfig,
    turn_of: dict[str, str],
) -> list[str]:  # fmt: skip
    """Every candidate the cascade reached for ``request``, best first, as turns (``turn_of``:
    memory id -> dia_id): the stages of `retrieval.recall` up to the ranking, without the choice
    of the top k."""
    q = retrieval.prepare(rt.store, namespace, request, config, retrieval.Services())
    pool = gather(q, rt.embedder)
    spread(q, pool)
    ranked, _ = rank(q, pool)
    return [turn_of.get(r.id, "") for r in ranked]


def memory_turns(rt: Runtime, namespace: str) -> dict[str, str]:
    """Memory id -> the dia_id of its turn, for the namespace's memories."""
    rows = transfer.export_lines(rt.store, namespace)
    return {r["props"]["id"]: r["props"]["source_messages"] for r in rows if r["kind"] == "memory"}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo-layout JSON file")
    parser.add_argument("--store", type=Path, required=True, help="kept store directory")
    parser.add_argument("--variant", nargs="+", default=["default"], help="cascade variants")
    parser.add_argument("--vector", action="store_true", help="add the exact vector baseline")
    parser.add_argument(
        "--pool", action="store_true", help="also rank the first variant's whole pool"
    )
    parser.add_argument("--k", type=int, default=10, help="memories asked for (scored at 10)")
    parser.add_argument("--json", type=Path, help="write each question's returned turns here")
    parser.add_argument("--limit", type=int, help="only the first N conversations")
    graph.add_arguments(parser)
    args = parser.parse_args()
    conversations = data.load(args.data)[: args.limit]
    categories = data.category_names(conversations)
    configs = {spec: variant(spec) for spec in args.variant}
    names = [*configs, *(["vector"] if args.vector else [])]
    tables = {n: data.RecallTable(names=categories) for n in names}
    per_conversation: dict[str, dict[str, data.RecallTable]] = {n: {} for n in names}
    pooled = data.RecallTable(ks=POOL_DEPTHS, names=categories)
    marker = args.store / "loaded.json"
    rt = Runtime.open(graph.settings(args, data_dir=args.store), attach=False)
    loaded: list[str] = json.loads(marker.read_text()) if marker.exists() else []
    answers: list[dict[str, object]] = []
    try:
        for conv in conversations:
            namespace = f"variants-{conv.sample_id}"
            if conv.sample_id not in loaded:
                started = time.perf_counter()
                locomo_bench.load(rt, conv, namespace)
                loaded.append(conv.sample_id)
                marker.write_text(json.dumps(loaded))
                print(f"{conv.sample_id}: loaded in {time.perf_counter() - started:.0f}s")
            if args.vector:
                dia_ids, _, vectors = locomo_bench.stored(rt, namespace)
            turn_of = memory_turns(rt, namespace) if args.pool else {}
            for n in names:
                per_conversation[n][conv.sample_id] = data.RecallTable(names=categories)
            for q in conv.questions:
                answer: dict[str, object] = {
                    "conversation": conv.sample_id, "question": q.question,
                    "category": q.category, "evidence": list(q.evidence),
                }  # fmt: skip
                returned: dict[str, list[str]] = {}
                for spec, config in configs.items():
                    request = retrieval.RecallRequest(
                        context=q.question, k=args.k, include_gap=True
                    )
                    result = retrieval.recall(rt.store, rt.embedder, namespace, request, config)
                    returned[spec] = locomo_bench.turns_of(result)
                if args.pool:
                    request = retrieval.RecallRequest(context=q.question, k=args.k)
                    first = configs[args.variant[0]]
                    pooled.add(q, pool_turns(rt, namespace, request, first, turn_of))
                if args.vector:
                    near = baselines.rank(vectors @ rt.embedder.embed([q.question])[0])
                    returned["vector"] = [dia_ids[i] for i in near[: args.k]]
                for n, turns in returned.items():
                    tables[n].add(q, turns)
                    per_conversation[n][conv.sample_id].add(q, turns)
                answers.append({**answer, **returned})
            print(f"{conv.sample_id}: {len(conv.questions)} questions asked", flush=True)
    finally:
        rt.close()
    print(data.category_legend(categories))
    width = max(len(n) for n in names)
    print(f"{'variant':<{width}}  recall@10 " + data.table_header(categories))
    for n in names:
        print(f"{n:<{width}}  {tables[n].row(10)}")
    print(
        "per conversation, recall@10 over all its questions: "
        + " ".join(per_conversation[names[0]])
    )
    for n in names:
        cells = " ".join(f"{100 * t.recall(10):5.1f}" for t in per_conversation[n].values())
        print(f"{n:<{width}}  {cells}")
    if args.pool:
        print(f"the whole pool of {names[0]}: evidence recall at each depth of its ranking")
        print(f"{'depth':>7}  " + data.table_header(categories))
        for depth in POOL_DEPTHS:
            label = "all" if depth == POOL_DEPTHS[-1] else str(depth)
            print(f"{label:>7}  {pooled.row(depth)}")
    if args.json:
        args.json.write_text(json.dumps(answers))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
