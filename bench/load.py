"""Load: N concurrent clients against a real `hippograph serve` in a process of its own.

    python bench/load.py [--clients 8] [--minutes 2] [--memories 10000] [--recall-share 0.8]
                         [--data-dir DIR] [--namespace NS] [--json OUT] [--server-log FILE]

Seeds ``--memories`` memories (realistic 15-30 word texts sharing a small set of tags, as
agents write them) through ``rememberBatch``, sends one recall and one remember (the engine
builds its vector graph then: see ``warm_up``), then runs ``--clients`` threads for
``--minutes``, each sending ``recall`` (80%) or ``remember`` (20%) over HTTP, one request at a
time. Prints progress every 10 s, then per operation: count, throughput, p50/p95/p99 and errors;
and the final check: every acknowledged ``remember`` is read back by id (acknowledged vs
present). Exit status 1 when an acknowledged write is missing. Then the transactions the server
ran again (``graph.store.store``'s retry log lines, read from its output): by the statement that
failed and the engine file where the two writers met.

``--data-dir`` keeps the server's data directory (a second run on it skips the seeding when the
namespace already holds enough memories); with ``--namespace`` a store another bench built
(``bench/latency.py --build-only``) is the seed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.rss import Sampler, rss_mb  # noqa: E402
from bench.server import serve  # noqa: E402
from bench.throughput import texts  # noqa: E402

NAMESPACE = "load"
TAGS = ["family", "work", "health", "travel", "food", "music", "sport", "plans"]
REMEMBER = """mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { memory { id } action }
}"""
BATCH = """mutation($ns: String!, $ms: [MemoryInput!]!) {
  rememberBatch(namespace: $ns, memories: $ms) { memory { id } }
}"""
RECALL = """query($ns: String!, $c: String!) {
  recall(namespace: $ns, context: $c, k: 10) { items { memory { id } } }
}"""
COUNT = """query($ns: String!, $after: String) {
  memories(namespace: $ns, first: 200, after: $after) { items { id } nextCursor }
}"""
QUESTIONS = [
    "what does {p} like to do on {d}?",
    "when did {p} start {t}?",
    "how should I plan {t} with {p}?",
    "what does {p} dislike about {t}?",
]


@dataclass
class Tally:
    """What the clients saw, per operation (guarded by ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"recall": [], "remember": []}
    )
    errors: dict[str, list[str]] = field(default_factory=lambda: {"recall": [], "remember": []})
    acknowledged: list[str] = field(default_factory=list)
    # (start, op, seconds) of every request, start in seconds on the monotonic clock.
    trace: list[tuple[float, str, float]] = field(default_factory=list)

    def add(
        self, op: str, started: float, seconds: float, error: str | None, memory_id: str | None
    ) -> None:
        with self.lock:
            self.latencies[op].append(seconds)
            self.trace.append((started, op, seconds))
            if error is not None:
                self.errors[op].append(error)
            if memory_id is not None:
                self.acknowledged.append(memory_id)


def post(client: httpx.Client, url: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    r = client.post(url, json={"query": query, "variables": variables}, timeout=120)
    if r.status_code != 200:
        raise RuntimeError(f"HTTP {r.status_code}: {r.text[:200]}")
    body: dict[str, Any] = r.json()
    if body.get("errors"):
        codes = [e.get("extensions", {}).get("code", "?") for e in body["errors"]]
        raise RuntimeError(f"{codes}: {body['errors'][0].get('message', '')[:200]}")
    return body["data"]  # type: ignore[no-any-return]


def memory(text: str, i: int) -> dict[str, Any]:
    return {"content": text, "tags": [TAGS[i % len(TAGS)], TAGS[(i * 3 + 1) % len(TAGS)]]}


def present(client: httpx.Client, url: str) -> set[str]:
    """Every memory id of the namespace, by pages."""
    ids: set[str] = set()
    after = None
    while True:
        page = post(client, url, COUNT, {"ns": NAMESPACE, "after": after})["memories"]
        ids.update(m["id"] for m in page["items"])
        after = page["nextCursor"]
        if after is None:
            return ids


def seed(client: httpx.Client, url: str, n: int) -> None:
    have = len(present(client, url))
    if have >= n:
        print(f"seed: {have} memories already there", flush=True)
        return
    started = time.perf_counter()
    corpus = texts(n - have, f"seed{have}")
    for start in range(0, len(corpus), 250):
        chunk = corpus[start : start + 250]
        ms = [memory(t, have + start + j) for j, t in enumerate(chunk)]
        post(client, url, BATCH, {"ns": NAMESPACE, "ms": ms})
        done = start + len(chunk)
        rate = done / (time.perf_counter() - started)
        print(f"seed: {have + done}/{n} memories ({rate:.0f}/s)", flush=True)


def warm_up(client: httpx.Client, url: str) -> None:
    """One recall and one remember before the clock starts. The engine builds its vector
    index's graph at the first search after the seed's inserts (1,000 vectors: 2.7-6.8 s on 2
    shared cores), and every request that arrives meanwhile waits for it: left in the measured
    minute, those first 8 requests were remember's two slowest, its p99 (8.9 s against a p50
    of 0.35 s). The first remembers (statements planned, write paths compiled by the JVM)
    took ~1.9 s, 4 of the 6 slowest of a run."""
    started = time.perf_counter()
    post(client, url, RECALL, {"ns": NAMESPACE, "c": "warm-up"})
    recalled = time.perf_counter()
    post(client, url, REMEMBER, {"ns": NAMESPACE, "m": memory(texts(1, "warm-up")[0], 0)})
    print(
        f"warm-up: first recall after the seed {recalled - started:.1f} s, "
        f"first remember {time.perf_counter() - recalled:.1f} s",
        flush=True,
    )


def client_loop(url: str, tally: Tally, deadline: float, share: float, worker: int) -> None:
    rng = random.Random(worker)
    people = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana"]
    things = ["tea", "jazz", "chess", "hiking", "sushi", "Python", "cycling", "poetry"]
    days = ["Monday", "Friday", "Sunday"]
    i = 0
    with httpx.Client() as client:
        while time.monotonic() < deadline:
            i += 1
            op = "recall" if rng.random() < share else "remember"
            started = time.perf_counter()
            began = time.monotonic()
            error = memory_id = None
            try:
                if op == "recall":
                    q = rng.choice(QUESTIONS).format(
                        p=rng.choice(people), t=rng.choice(things), d=rng.choice(days)
                    )
                    post(client, url, RECALL, {"ns": NAMESPACE, "c": q})
                else:
                    text = texts(1, f"client{worker}-{i}")[0]
                    data = post(client, url, REMEMBER, {"ns": NAMESPACE, "m": memory(text, i)})
                    memory_id = data["remember"]["memory"]["id"]
            except (httpx.HTTPError, RuntimeError) as exc:
                error = str(exc)
            tally.add(op, began, time.perf_counter() - started, error, memory_id)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(tally: Tally, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for op, lat in tally.latencies.items():
        out[op] = {
            "count": len(lat),
            "per_s": len(lat) / seconds,
            "p50_ms": percentile(lat, 0.50) * 1000,
            "p95_ms": percentile(lat, 0.95) * 1000,
            "p99_ms": percentile(lat, 0.99) * 1000,
            "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
            "errors": len(tally.errors[op]),
            "first_errors": tally.errors[op][:3],
        }
    return out


RETRIED = re.compile(r"transaction retried \(attempt \d+, in \d+ ms\): (\S+) failed: (.*)")
PAGE = re.compile(r"PageId\(\w+/(\d+)/\d+\)|#(\d+):\d+")


def retries(log: Path, offset: int, data_dir: Path) -> Counter[str]:
    """The server's retried transactions (logged past ``offset``), by failing statement and the
    file the writers met in (ArcadeDB names a page database/file/page, a record or an edge
    chunk #file:position)."""
    names = {}
    for path in data_dir.glob("arcadedb/databases/*/*"):
        parts = path.name.split(".")
        if len(parts) > 2 and parts[1].isdigit():
            names[parts[1]] = parts[0]
    found: Counter[str] = Counter()
    with log.open("rb") as fh:
        fh.seek(offset)
        text = fh.read().decode("utf-8", errors="replace")
    for line in text.splitlines():
        match = RETRIED.search(line)
        if match is None:
            continue
        page = PAGE.search(match.group(2))
        file_id = (page.group(1) or page.group(2)) if page else None
        where = names.get(file_id or "", f"file {file_id}") if file_id else "?"
        found[f"{match.group(1)} on {where}"] += 1
    return found


def run_clients(url: str, clients: int, minutes: float, share: float) -> tuple[Tally, float]:
    """``clients`` threads sending requests for ``minutes``, progress every 10 s: what they
    saw and the seconds it took."""
    tally = Tally()
    deadline = time.monotonic() + minutes * 60
    threads = [
        threading.Thread(target=client_loop, args=(url, tally, deadline, share, w), daemon=True)
        for w in range(clients)
    ]
    started = time.perf_counter()
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        for t in threads:
            t.join(timeout=10)
        with tally.lock:
            done = {op: len(v) for op, v in tally.latencies.items()}
            errors = sum(len(v) for v in tally.errors.values())
        elapsed = time.perf_counter() - started
        print(f"load ({clients} clients): {elapsed:.0f} s {done} errors={errors}", flush=True)
    return tally, time.perf_counter() - started


def settle(pid: int, seconds: float) -> list[tuple[float, float | None]]:
    """The server's resident memory every 10 s for ``seconds`` after the burst, no request
    arriving: (seconds since the burst, MiB)."""
    readings: list[tuple[float, float | None]] = []
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        readings.append((round(elapsed), rss_mb(pid)))
        time.sleep(min(10.0, seconds - elapsed))
    readings.append((round(time.perf_counter() - started), rss_mb(pid)))
    print(f"settle: {readings[-1][1]} MiB after {readings[-1][0]} s", flush=True)
    return readings


def throughput(tally: Tally, seconds: float) -> float:
    """Requests of every operation answered per second."""
    return sum(len(v) for v in tally.latencies.values()) / seconds


def main() -> int:
    global NAMESPACE  # every request of this run names it (--namespace)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--minutes", type=float, default=2.0)
    single_help = "first, one client alone this long (0: skip): the concurrent/single ratio's base"
    parser.add_argument("--single-minutes", type=float, default=1.0, help=single_help)
    settle_help = "seconds to watch the server's memory after the burst, nothing arriving"
    parser.add_argument("--settle", type=float, default=60.0, help=settle_help)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--recall-share", type=float, default=0.8)
    parser.add_argument("--data-dir", type=Path, default=None)
    ns_help = "the namespace (a kept store built by another bench: its memories are the seed)"
    parser.add_argument("--namespace", default=NAMESPACE, help=ns_help)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--server-log", type=Path, default=None, help="the server's output")
    args = parser.parse_args()
    NAMESPACE = args.namespace
    # SIGTERM (a timeout) unwinds through the finally below, which stops the server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hippograph-load-"))
    server_log = args.server_log or data_dir.with_name(data_dir.name + ".server.log")
    offset = server_log.stat().st_size if server_log.exists() else 0
    served = serve(data_dir, timeout_s=600, log=server_log)
    pid = served.proc.pid
    print(f"server ready in {served.ready_s:.1f} s on {served.url} ({data_dir})", flush=True)
    try:
        with httpx.Client() as client:
            seed(client, served.url, args.memories)
            warm_up(client, served.url)
            single = None
            if args.single_minutes > 0:
                single = run_clients(served.url, 1, args.single_minutes, args.recall_share)
            memory: dict[str, float | None] = {"before_mb": rss_mb(pid)}
            sampler = Sampler(pid).start()
            tally, seconds = run_clients(served.url, args.clients, args.minutes, args.recall_share)
            memory |= {"peak_mb": sampler.stop(), "end_mb": rss_mb(pid)}
            readings = settle(pid, args.settle)
            memory |= {"after_mb": readings[-1][1], "settle_s": readings[-1][0]}
            found = present(client, served.url)
    finally:
        served.stop()
    figures = report(tally, seconds)
    missing = [i for i in tally.acknowledged if i not in found]
    print(f"\n{args.clients} clients, {seconds:.0f} s, {args.memories} seeded memories")
    for op, f in figures.items():
        print(
            f"{op:9s} {f['count']:6d} ops {f['per_s']:6.1f}/s  p50 {f['p50_ms']:7.0f} ms  "
            f"p95 {f['p95_ms']:7.0f} ms  p99 {f['p99_ms']:7.0f} ms  errors {f['errors']}"
        )
        for e in f["first_errors"]:
            print(f"          error: {e}")
    rem = figures["remember"]
    print(f"remember p99/p50: {rem['p99_ms'] / rem['p50_ms']:.2f}")
    ratio = None
    if single is not None:
        base = throughput(*single)
        ratio = throughput(tally, seconds) / base
        one = report(*single)
        print(
            f"1 client alone: {base:.1f} requests/s (recall p50 {one['recall']['p50_ms']:.0f} ms, "
            f"remember p50 {one['remember']['p50_ms']:.0f} ms); {args.clients} clients: "
            f"{throughput(tally, seconds):.1f}/s, {ratio:.2f}x"
        )
    mib = {k: "?" if v is None else f"{v:.0f}" for k, v in memory.items()}
    print(
        f"server resident memory (MiB): before the burst {mib['before_mb']}, peak "
        f"{mib['peak_mb']}, at its end {mib['end_mb']}, {mib['settle_s']} s later {mib['after_mb']}"
    )
    print(
        f"acknowledged writes: {len(tally.acknowledged)}, present: {len(tally.acknowledged) - len(missing)}"
    )
    retried = retries(server_log, offset, data_dir)
    print(f"transactions retried: {sum(retried.values())} (server log {server_log})")
    for where, n in retried.most_common():
        print(f"  {n:5d}  {where}")
    if args.json is not None:
        summary = {"clients": args.clients, "seconds": seconds, "ops": figures}
        summary |= {"acknowledged": len(tally.acknowledged), "missing": len(missing)}
        summary |= {"retried": dict(retried), "memory_mb": memory, "settle": readings}
        if single is not None:
            summary |= {"single": report(*single), "concurrent_ratio": ratio}
        t0 = min((t for t, _, _ in tally.trace), default=0.0)
        summary["trace"] = [[round(t - t0, 3), op, round(x * 1000)] for t, op, x in tally.trace]
        args.json.write_text(json.dumps(summary, indent=2))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
