"""The process's footprint: resident memory idle, cold start, and CLI commands against a server.

    python bench/footprint.py                          # an empty store
    python bench/footprint.py --memories 1000          # N memories remembered over the API first
    python bench/footprint.py --copy-from DIR          # a copy of a store (e.g. bench/latency.py's)
    python bench/footprint.py --data-dir DIR           # a store served in place (kept)

Starts ``hippograph serve`` on a fresh data directory (or a copy of ``--copy-from``: the source
is never opened), times the launch to the first 200 from ``/healthz``, lets it idle
``--idle`` seconds and reads its resident memory from ``/proc`` (total, anonymous, file-backed,
threads). Then times CLI commands run against the running server, each a new process:
``--help`` (imports only) and a search and a recall. The load average is printed with every
figure: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import ends_with_parent  # noqa: E402

NAMESPACE = "footprint"
EXE = Path(sys.executable).parent / "hippograph"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])


def rss(pid: int) -> dict[str, float]:
    """The process's resident memory in MB (VmRSS and its anonymous and file parts), threads."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
        elif key == "Threads":
            fields[key] = int(value)
    return fields


def start(
    data_dir: Path, port: int, env: dict[str, str], log_path: Path, *extra: str
) -> tuple[subprocess.Popen[bytes], float]:
    """``hippograph serve`` on ``data_dir`` (its output to ``log_path``); returns it and the
    seconds to a healthy /healthz."""
    log = log_path.open("ab")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [str(EXE), "serve", "--port", str(port), "--data-dir", str(data_dir), *extra],
        env=env, stdout=log, stderr=log, preexec_fn=ends_with_parent,
    )  # fmt: skip
    while time.perf_counter() - started < 300:
        if proc.poll() is not None:
            raise SystemExit(f"hippograph serve exited with {proc.returncode}: see {log.name}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc, time.perf_counter() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    proc.terminate()
    raise SystemExit("hippograph serve was not healthy within 300 s")


def remember(port: int, namespace: str, n: int) -> None:
    """``n`` short memories over the API, in batches."""
    import random

    from bench.latency import sentences

    texts = sentences(n, random.Random(7))
    mutation = (
        "mutation($ns: String!, $items: [MemoryInput!]!) "
        "{ rememberBatch(namespace: $ns, memories: $items) { action } }"
    )
    with httpx.Client(timeout=600) as client:
        for i in range(0, n, 200):
            items = [{"content": t} for t in texts[i : i + 200]]
            r = client.post(
                f"http://127.0.0.1:{port}/graphql",
                json={"query": mutation, "variables": {"ns": namespace, "items": items}},
            )
            if r.json().get("errors"):
                raise SystemExit(f"rememberBatch failed: {r.json()['errors'][0]['message']}")


def recall(port: int, namespace: str, n: int) -> float:
    """``n`` recalls over the API (made-up contexts, as bench/latency.py's); their mean ms."""
    import random

    from bench.latency import sentences

    query = "query($ns: String!, $c: String!) { recall(namespace: $ns, context: $c, k: 10) { totalMs } }"
    took = []
    with httpx.Client(timeout=120) as client:
        for context in sentences(n, random.Random(11)):
            body = client.post(
                f"http://127.0.0.1:{port}/graphql",
                json={"query": query, "variables": {"ns": namespace, "c": context}},
            ).json()
            if body.get("errors"):
                raise SystemExit(f"recall failed: {body['errors'][0]['message']}")
            took.append(float(body["data"]["recall"]["totalMs"]))
    return sum(took) / max(1, len(took))


def timed_cli(args: list[str], env: dict[str, str], repeat: int) -> dict[str, Any]:
    """A CLI command run ``repeat`` times, each a new process: wall seconds, best and each."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run([str(EXE), *args], env=env, capture_output=True, text=True)
        times.append(round(time.perf_counter() - started, 2))
        if done.returncode != 0:
            raise SystemExit(f"`hippograph {' '.join(args)}` failed: {done.stderr[-500:]}")
    return {"command": "hippograph " + " ".join(args), "best_s": min(times), "runs_s": times}


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=0, help="remember N over the API first")
    parser.add_argument("--copy-from", type=Path, help="serve a copy of this data directory")
    parser.add_argument("--data-dir", type=Path, help="serve this data directory in place")
    parser.add_argument("--namespace", default=NAMESPACE, help="where recalls and the CLI read")
    parser.add_argument("--recalls", type=int, default=50, help="recalls before reading RSS")
    parser.add_argument(
        "--no-jobs", action="store_true", help="serve --no-jobs: no maintenance job runs meanwhile"
    )
    parser.add_argument("--idle", type=float, default=15.0, help="seconds idle before reading RSS")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each CLI command")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--log", type=Path, help="keep the server's output here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hippograph-footprint-"))
    data_dir = args.data_dir.resolve() if args.data_dir else work / "data"
    if args.copy_from:
        shutil.copytree(args.copy_from, data_dir, ignore=shutil.ignore_patterns("*.npz", "log"))
        for name in ("engine.json", "hippograph.lock"):
            (data_dir / name).unlink(missing_ok=True)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    env.pop("HIPPOGRAPH_GRAPH_URI", None)
    port = free_port()
    store = args.data_dir or args.copy_from or "empty"
    figures: dict[str, Any] = {"load_at_start": load(), "store": str(store)}
    extra = ["--no-jobs"] if args.no_jobs else []
    print(
        f"$ hippograph serve --port {port} --data-dir {data_dir} {' '.join(extra)} (load {load()})"
    )
    proc, ready_s = start(data_dir, port, env, work / "serve.log", *extra)
    figures |= {"cold_start_s": round(ready_s, 2), "load_at_ready": load()}
    print(f"cold start to a healthy /healthz: {ready_s:.1f} s (load {figures['load_at_ready']})")
    try:
        if args.memories:
            remember(port, args.namespace, args.memories)
            print(f"remembered {args.memories} memories (load {load()})")
        if args.recalls:
            mean = recall(port, args.namespace, args.recalls)
            figures["recall_mean_ms"] = round(mean, 1)
            print(f"{args.recalls} recalls in {args.namespace}: {mean:.0f} ms mean (load {load()})")
        time.sleep(args.idle)
        mem = rss(proc.pid)
        figures |= {"rss_mb": mem, "load_at_rss": load()}
        print(
            f"idle RSS after {args.idle:.0f} s: {mem['VmRSS']:.0f} MB (anon {mem['RssAnon']:.0f}, "
            f"file {mem['RssFile']:.0f}, shared {mem['RssShmem']:.0f}, peak {mem['VmHWM']:.0f}; {mem['Threads']:.0f} threads; "
            f"load {figures['load_at_rss']})"
        )
        common = ["--data-dir", str(data_dir)]
        commands = [
            ["search", "--help"],
            ["search", "hello", "-n", args.namespace, "-k", "3", *common],
            ["recall", "what do we know", "-n", args.namespace, "-k", "3", *common],
        ]
        figures["cli"] = []
        for command in commands:
            timed = timed_cli(command, env, args.repeat) | {"load": load()}
            figures["cli"].append(timed)
            print(f"{timed['best_s']:.2f} s best of {timed['runs_s']}: {timed['command']} "
                  f"(load {timed['load']})")  # fmt: skip
        figures["rss_after_cli_mb"] = rss(proc.pid)["VmRSS"]
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        if args.log:
            shutil.copy(work / "serve.log", args.log)
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
