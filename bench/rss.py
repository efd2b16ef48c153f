"""A process's resident memory over time, for the benchmarks (Linux ``/proc``; elsewhere every
reading is None)."""

from __future__ import annotations

import threading
from pathlib import Path


def rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB (VmRSS), None when it cannot be read."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


class Sampler:
    """Samples the resident memory of ``pid`` every ``every_s`` seconds on a thread of its own
    while running (``start``/``stop``), keeping the highest reading: a burst's peak that a
    reading before and after it would miss."""

    def __init__(self, pid: int, every_s: float = 0.5) -> None:
        self.pid = pid
        self.every_s = every_s
        self.peak_mb: float | None = None
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stopped.is_set():
            now = rss_mb(self.pid)
            if now is not None and (self.peak_mb is None or now > self.peak_mb):
                self.peak_mb = now
            self._stopped.wait(self.every_s)

    def start(self) -> Sampler:
        self._thread.start()
        return self

    def stop(self) -> float | None:
        """Stops sampling and returns the peak in MiB."""
        self._stopped.set()
        self._thread.join()
        return self.peak_mb
