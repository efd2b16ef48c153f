"""Is every text function on the write path linear? One command: python bench/pathological.py

Times the privacy filter, the signal scan, tag inference, keyword extraction, chunking and the
offline extractor on unbroken strings of growing size and several shapes (one lowercase word,
one uppercase word, alternating case, digits, key-ish characters), and prints the seconds per
call and the growth from the smallest to the largest size. A linear function grows by about
the size ratio (8x from 4 KiB to 32 KiB); a quadratic one by its square.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from hippograph.graph.text import privacy
from hippograph.graph.write import chunks, signals, tagging
from hippograph.graph.write.extract import TurnText, extract_offline

SHAPES: dict[str, Callable[[int], str]] = {
    "lower": lambda n: "z" * n,
    "upper": lambda n: "Z" * n,
    "upper_then_lower": lambda n: "Z" * (n - 1) + "q",
    "alternating": lambda n: "aB" * (n // 2),
    "digits": lambda n: "7" * n,
    "keyish": lambda n: "sk-" + "a1" * (n // 2),
    "spaced_title": lambda n: "Ab " * (n // 3),
}

FUNCTIONS: dict[str, Callable[[str], object]] = {
    "privacy.scan": privacy.scan,
    "signals.score": signals.score,
    "tagging.infer_tags": tagging.infer_tags,
    "tagging.keywords": tagging.keywords,
    "chunks.split": lambda text: chunks.split(text, 2000),
    "extract_offline": lambda text: extract_offline(TurnText("user", text, None, "s", 0)),
}


def timed(fn: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    fn(text)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="4096,16384,32768", help="comma-separated lengths")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'function':<20} {'shape':<18} " + " ".join(f"{n:>9}" for n in sizes) + "  growth")
    for fname, fn in FUNCTIONS.items():
        for sname, shape in SHAPES.items():
            seconds = [timed(fn, shape(n)) for n in sizes]
            growth = seconds[-1] / max(seconds[0], 1e-6)
            cells = " ".join(f"{s:>9.4f}" for s in seconds)
            print(f"{fname:<20} {sname:<18} {cells}  {growth:6.1f}x", flush=True)


if __name__ == "__main__":
    main()
