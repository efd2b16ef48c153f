"""How fast and how right is clustering at scale? One command: python bench/cluster_speed.py

Builds unit vectors around random centres (gaussian blobs of uneven size in 384
dimensions, plus a share of uniformly random noise vectors), runs
``hippograph.graph.upkeep.clustering.cluster`` with the default config, and prints the wall time
and the adjusted Rand index against the true blobs.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np
import numpy.typing as npt
from sklearn.metrics import adjusted_rand_score

from hippograph.graph.upkeep.clustering import DEFAULT_CLUSTER_CONFIG, ClusterResult, cluster

Blobs = tuple[npt.NDArray[np.float32], npt.NDArray[np.intp]]


def blobs(n: int, k: int, dim: int, spread: float, noise: float, seed: int) -> Blobs:
    """``n`` unit vectors: ``k`` blobs (true label = blob) and a ``noise`` share (label -1).

    ``spread`` is the per-coordinate standard deviation around a unit centre; 0.05 in 384
    dimensions puts members at cosine ~0.7 to their centre, like sentence embeddings of one
    topic.
    """
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((k, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    weights = rng.uniform(0.3, 1.7, k)
    n_noise = int(n * noise)
    labels = rng.choice(k, size=n - n_noise, p=weights / weights.sum())
    points = centres[labels] + spread * rng.standard_normal((n - n_noise, dim))
    x = np.vstack([points, rng.standard_normal((n_noise, dim))])
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    truth = np.concatenate([labels, np.full(n_noise, -1)]).astype(np.intp)
    order = rng.permutation(n)
    return x[order].astype(np.float32), truth[order]


def predicted(ids: list[str], result: ClusterResult) -> npt.NDArray[np.intp]:
    index = {c.id: i for i, c in enumerate(result.clusters)}
    return np.array(
        [index[result.assignments[m][0]] if m in result.assignments else -1 for m in ids],
        dtype=np.intp,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=200)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--spread", type=float, default=0.05)
    parser.add_argument("--noise", type=float, default=0.02)
    parser.add_argument("--reduce-to", type=int, default=DEFAULT_CLUSTER_CONFIG.reduce_to)
    parser.add_argument("--sample-above", type=int, default=DEFAULT_CLUSTER_CONFIG.sample_above)
    args = parser.parse_args()
    config = replace(
        DEFAULT_CLUSTER_CONFIG, reduce_to=args.reduce_to, sample_above=args.sample_above
    )
    x, truth = blobs(args.n, args.k, args.dim, args.spread, args.noise, seed=0)
    ids = [f"m{i}" for i in range(args.n)]
    start = time.perf_counter()
    result = cluster(ids, x, None, config)
    seconds = time.perf_counter() - start
    labels = predicted(ids, result)
    placed = labels >= 0
    print(f"config: {config}")
    print(f"data: n={args.n} blobs={args.k} dim={args.dim} spread={args.spread} noise={args.noise}")
    print(f"time: {seconds:.2f} s")
    print(f"clusters: {len(result.clusters)} (true {args.k}); unassigned: {1 - placed.mean():.3f}")
    print(f"ARI, all points (noise is one label): {adjusted_rand_score(truth, labels):.4f}")
    print(f"ARI, assigned points: {adjusted_rand_score(truth[placed], labels[placed]):.4f}")
    true_noise = truth < 0
    print(f"true noise left unassigned: {(~placed[true_noise]).mean():.3f}")


if __name__ == "__main__":
    main()
