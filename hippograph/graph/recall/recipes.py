"""Named cascades: the default and each ablation the benchmarks ask beside it (Graphiti's
``search_config_recipes.py``). What each ablation costs on the dev splits is in
docs/research/recall.md."""

from __future__ import annotations

from hippograph.graph.recall.recall_config import CascadeConfig

DEFAULT_CASCADE = CascadeConfig()
# Without the vocabulary seeds.
NO_VOCABULARY = DEFAULT_CASCADE.changed(vocabulary_seeds=0)
# Without the addressee cue ("what did you recommend").
NO_ADDRESSEE = DEFAULT_CASCADE.changed(addressee_weight=0.0)
# The frame that reports a turn kept in the searched text.
FRAMED = DEFAULT_CASCADE.changed(unframe=False)
# Nothing kept in the top k by its own score.
NO_ANCHORS = DEFAULT_CASCADE.changed(anchors=0)
# Standing instructions neither seed nor are kept.
NO_STANDING = DEFAULT_CASCADE.changed(standing_rules=0)
# Entities seed (the ones the context names) and are followed (shared ones): off by default,
# neither helped on the LoCoMo dev split (docs/research/entities.md).
ENTITIES = DEFAULT_CASCADE.changed(entity_seeds=10, mentions_weight=0.5)
# Entities neither seed nor are followed: the default while ENTITIES is not.
NO_ENTITIES = DEFAULT_CASCADE.changed(entity_seeds=0, mentions_weight=0.0)
# The seeds and their ranking without graph expansion.
NO_EXPAND = DEFAULT_CASCADE.changed(depth=0)
# Without graph expansion or query cues: what plain hybrid search gives.
SEEDS_ONLY = DEFAULT_CASCADE.changed(
    depth=0, speaker_weight=0.0, addressee_weight=0.0, time_weight=0.0, prf_weight=0.0,
    standing_rules=0,
)  # fmt: skip

# The ablations `bench/locomo.py` asks beside the default, by the name it reports them under.
ABLATIONS: dict[str, CascadeConfig] = {
    "no-vocabulary": NO_VOCABULARY,
    "no-addressee": NO_ADDRESSEE,
    "framed": FRAMED,
    "no-anchors": NO_ANCHORS,
    "no-standing": NO_STANDING,
    "no-expand": NO_EXPAND,
    # Beside a default without them: what entities add (the no-entities question, asked the
    # other way round while they are off).
    "entities": ENTITIES,
    "seeds-only": SEEDS_ONLY,
}
