"""The embedded engine's JVM runs with the options recall latency depends on."""

from __future__ import annotations

from hippograph.graph.runtime import Runtime


def test_the_engine_heap_is_committed_and_faulted_in_up_front(runtime: Runtime) -> None:
    import jpype

    beans = jpype.JClass("java.lang.management.ManagementFactory")
    args = [str(a) for a in beans.getRuntimeMXBean().getInputArguments()]
    assert "-XX:+UseZGC" in args and "-XX:+AlwaysPreTouch" in args
    xms = [a[4:] for a in args if a.startswith("-Xms")]
    xmx = [a[4:] for a in args if a.startswith("-Xmx")]
    assert xms and xmx and xms[-1] == xmx[-1], (xms, xmx)
    assert runtime.store.dialect.name == "arcadedb"


def test_the_latency_bench_reads_the_jit_compiler_threads_cpu(runtime: Runtime) -> None:
    import os

    from bench.latency import compiler_cpu_s

    # This process hosts the engine's JVM, whose compiler threads have compiled its start-up.
    used = compiler_cpu_s(os.getpid())
    assert used is not None and used > 0
    assert compiler_cpu_s(2**22 + 1) is None  # above Linux's pid limit: no such process
