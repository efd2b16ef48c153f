"""The embedded engine's JVM runs with the options recall latency depends on."""

from __future__ import annotations

from hippograph.graph.runtime import Runtime


def test_the_engine_heap_starts_at_its_start_size_faulted_in_and_is_bounded(
    runtime: Runtime,
) -> None:
    import jpype

    beans = jpype.JClass("java.lang.management.ManagementFactory")
    args = [str(a) for a in beans.getRuntimeMXBean().getInputArguments()]
    assert "-XX:+UseZGC" in args and "-XX:+AlwaysPreTouch" in args
    xms = [a[4:] for a in args if a.startswith("-Xms")]
    xmx = [a[4:] for a in args if a.startswith("-Xmx")]
    graph = runtime.settings.graph
    assert xms and xmx and (xms[-1], xmx[-1]) == (graph.engine_heap_start, graph.engine_heap)
    # The bound the JVM runs with (its own reading of -Xmx, within a region's rounding).
    most = int(jpype.JClass("java.lang.Runtime").getRuntime().maxMemory())
    assert 0.9 <= most / _bytes(graph.engine_heap) <= 1.1
    assert runtime.store.dialect.name == "arcadedb"


def _bytes(size: str) -> int:
    return int(size[:-1]) * {"k": 1024, "m": 1024**2, "g": 1024**3}[size[-1]]


def test_the_latency_bench_reads_the_jit_compiler_threads_cpu(runtime: Runtime) -> None:
    import os

    from bench.latency import compiler_cpu_s

    # This process hosts the engine's JVM, whose compiler threads have compiled its start-up.
    used = compiler_cpu_s(os.getpid())
    assert used is not None and used > 0
    assert compiler_cpu_s(2**22 + 1) is None  # above Linux's pid limit: no such process


def test_a_pause_in_writing_does_not_rebuild_the_vector_index_and_new_vectors_are_found(
    runtime: Runtime, namespace: str
) -> None:
    """The 15 s inactivity rebuild (all N vectors after every write burst) is off; what was
    written since the last build is found exactly, through the index's delta buffer."""
    import jpype

    from hippograph.graph.model import NewMemory
    from hippograph.graph.store.store import vector
    from hippograph.graph.write import writepath

    config = jpype.JClass("com.arcadedb.GlobalConfiguration")
    assert int(config.VECTOR_INDEX_INACTIVITY_REBUILD_TIMEOUT_MS.getValueAsInteger()) == 0
    texts = [f"The heron number {i} nested by the {p} canal" for i, p in enumerate("abcdefgh")]
    written = writepath.remember(
        runtime.store, runtime.embedder, namespace, [NewMemory(content=t) for t in texts]
    )
    for text, w in zip(texts, written, strict=True):
        rows = runtime.store.read(
            "recall/vector_seeds",
            namespace=namespace,
            statuses=["active"],
            embedding=vector(runtime.embedder.embed([text])[0]),
            k=1,
            candidates=100,
            scopes=["global"],
            as_of=None,
        )
        assert [r["id"] for r in rows] == [w.memory.id]
        assert rows[0]["cosine"] > 0.999
