from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from hippograph.graph.errors import InvalidInput
from hippograph.graph.upkeep.clustering import (
    ClusterConfig,
    ClusterResult,
    cluster,
    document_frequencies,
    label,
)

DIM = 384


def blobs(
    sizes: list[int], *, seed: int = 0, spread: float = 0.03
) -> tuple[npt.NDArray[np.float32], list[int]]:
    """Unit vectors around random, nearly orthogonal centres; returns vectors and blob index."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((len(sizes), DIM))
    truth = [blob for blob, size in enumerate(sizes) for _ in range(size)]
    x = centres[truth] / np.sqrt(DIM) + spread * rng.standard_normal((len(truth), DIM))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x.astype(np.float32), truth


def as_sets(result: ClusterResult) -> set[frozenset[str]]:
    return {frozenset(c.member_ids) for c in result.clusters}


def expected_sets(ids: list[str], truth: list[int]) -> set[frozenset[str]]:
    return {frozenset(i for i, t in zip(ids, truth, strict=True) if t == b) for b in set(truth)}


def test_well_separated_blobs_are_recovered_exactly() -> None:
    x, truth = blobs([40, 30, 25, 20])
    ids = [f"m{i}" for i in range(len(truth))]

    result = cluster(ids, x, None)

    assert as_sets(result) == expected_sets(ids, truth)
    assert [c.size for c in result.clusters] == [40, 30, 25, 20]
    assert set(result.assignments) == set(ids)


def test_reduced_and_sampled_path_recovers_blobs() -> None:
    x, truth = blobs([300, 250, 200, 150], seed=1)
    ids = [f"m{i}" for i in range(len(truth))]
    config = ClusterConfig(reduce_to=8, reduce_above=100, sample_above=300)

    result = cluster(ids, x, None, config)

    # Rows outside the sample join by a cosine floor, so a rare tail row may stay out.
    expected = expected_sets(ids, truth)
    assert len(result.clusters) == 4
    assert all(any(found <= blob for blob in expected) for found in as_sets(result))
    assert len(result.assignments) >= 0.99 * len(ids)


def test_rows_outside_the_sample_do_not_join_clusters_of_random_data() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1200, DIM)).astype(np.float32)
    ids = [f"m{i}" for i in range(len(x))]
    config = ClusterConfig(min_cluster_size=4, reduce_to=8, reduce_above=100, sample_above=400)

    result = cluster(ids, x, None, config)

    # HDBSCAN finds a couple of loose specks in the sample. A floor taken from the members'
    # spread alone would let them swallow ~850 rows; mimicking HDBSCAN's verdicts, ~60.
    assert len(result.clusters) >= 1
    assert len(result.assignments) <= 0.1 * len(ids)


def test_centroids_are_unit_and_scores_are_cosines_in_range() -> None:
    x, truth = blobs([30, 30])
    ids = [f"m{i}" for i in range(len(truth))]

    result = cluster(ids, x, None)

    row = {memory_id: i for i, memory_id in enumerate(ids)}
    for c in result.clusters:
        centroid = np.array(c.centroid)
        assert len(c.centroid) == DIM
        assert np.linalg.norm(centroid) == pytest.approx(1.0, abs=1e-5)
        for memory_id in c.member_ids:
            cluster_id, score = result.assignments[memory_id]
            assert cluster_id == c.id
            assert 0.0 <= score <= 1.0
            assert score == pytest.approx(float(x[row[memory_id]] @ centroid), abs=1e-4)
            assert score > 0.5


def test_noise_points_are_not_assigned() -> None:
    x, truth = blobs([30, 30, 30])
    rng = np.random.default_rng(7)
    outliers = rng.standard_normal((4, DIM)).astype(np.float32)
    ids = [f"m{i}" for i in range(len(truth))] + [f"noise{i}" for i in range(4)]

    result = cluster(ids, np.vstack([x, outliers]), None)

    assert len(result.clusters) == 3
    members = {m for c in result.clusters for m in c.member_ids}
    assert not {f"noise{i}" for i in range(4)} & (members | set(result.assignments))
    assert len(result.assignments) == len(truth)


def test_ids_are_stable_when_ninety_percent_of_members_remain() -> None:
    x, truth = blobs([40, 40, 40])
    ids = [f"m{i}" for i in range(len(truth))]
    first = cluster(ids, x, None)
    previous = {m: cid for m, (cid, _) in first.assignments.items()}
    # One memory in ten is forgotten and a new one arrives at the same place.
    renamed = [f"new{i}" if i % 10 == 0 else m for i, m in enumerate(ids)]

    second = cluster(renamed, x, previous)

    old_by_row = {i: first.assignments[m][0] for i, m in enumerate(ids)}
    new_by_row = {i: second.assignments[m][0] for i, m in enumerate(renamed)}
    assert new_by_row == old_by_row
    assert len({c.id for c in second.clusters}) == 3


def test_new_ids_when_membership_changes_entirely() -> None:
    x, truth = blobs([30, 30])
    first = cluster([f"a{i}" for i in range(len(truth))], x, None)
    previous = {m: cid for m, (cid, _) in first.assignments.items()}

    second = cluster([f"b{i}" for i in range(len(truth))], x, previous)

    old_ids = {c.id for c in first.clusters}
    assert len(second.clusters) == 2
    assert all(c.id not in old_ids for c in second.clusters)
    assert all(len(c.id) == 32 and int(c.id, 16) >= 0 for c in second.clusters)


def test_a_previous_id_is_reused_at_most_once() -> None:
    x, truth = blobs([40, 30, 20])
    ids = [f"m{i}" for i in range(len(truth))]

    result = cluster(ids, x, dict.fromkeys(ids, "old"))

    assert [c.id == "old" for c in result.clusters] == [True, False, False]
    assert len({c.id for c in result.clusters}) == 3


def test_ids_below_the_overlap_threshold_are_not_inherited() -> None:
    x, truth = blobs([30, 30])
    ids = [f"m{i}" for i in range(len(truth))]
    # Only 40% of each new cluster comes from the previous cluster "old".
    previous = {m: "old" for i, m in enumerate(ids) if i % 30 < 12}

    result = cluster(ids, x, previous, ClusterConfig(stable_overlap=0.5))

    assert all(c.id != "old" for c in result.clusters)


def test_clustering_is_deterministic() -> None:
    x, truth = blobs([300, 250, 200, 150], seed=3)
    ids = [f"m{i}" for i in range(len(truth))]
    config = ClusterConfig(reduce_to=8, reduce_above=100, sample_above=300)

    first = cluster(ids, x, None, config)
    second = cluster(ids, x, None, config)

    assert first == second


def test_too_few_rows_give_no_clusters() -> None:
    x, _ = blobs([4])
    assert cluster(["a", "b", "c", "d"], x, None) == ClusterResult(clusters=[], assignments={})


def test_bad_input_is_rejected() -> None:
    x, _ = blobs([10])
    with pytest.raises(InvalidInput, match="embeddings"):
        cluster(["a"], x, None)
    with pytest.raises(InvalidInput, match="ids"):
        cluster(["a"] * 10, x, None)
    with pytest.raises(InvalidInput, match="stable_overlap"):
        ClusterConfig(stable_overlap=0.0)
    with pytest.raises(InvalidInput, match="min_cluster_size"):
        ClusterConfig(min_cluster_size=1)


CORPUS = [
    "Went hiking on the mountain trail this weekend",
    "Camping by the lake, then hiking the ridge trail",
    "Bought new camping gear for the weekend hiking trip",
    "Cooked pasta with tomato sauce this weekend",
    "Baked sourdough bread at the weekend",
    "Tried a new pasta recipe with garlic",
]


def test_label_picks_the_distinctive_terms() -> None:
    df = document_frequencies(CORPUS)

    assert label(CORPUS[:3], df, len(CORPUS)) == "hiking · camping · trail"
    assert label(CORPUS[3:], df, len(CORPUS), top=1) == "pasta"


def test_label_without_corpus_counts_ranks_by_member_frequency() -> None:
    assert label(CORPUS[:3], None, 0, top=2) == "hiking · camping"
    assert label(["the and of", "I was there"], None, 0) == ""


def test_document_frequencies_count_each_text_once_and_skip_stopwords() -> None:
    df = document_frequencies(["trail trail trail", "the trail", "a lake"])

    assert df == {"trail": 2, "lake": 1}
