"""Progress of a batch: a tqdm bar (the optional `batch` extra), else a plain line counter.

Both show how many submissions are done, how many failed (could not be graded) and the time left.
"""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, enabled: bool = True, stream=None):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self._bar = _tqdm(total, self.stream) if enabled and total else None
        self._quiet = not enabled or not total
        self._every = 1 if self._interactive() or total <= 20 else max(1, total // 20)

    def update(self, failed: bool) -> None:
        self.done += 1
        self.failed += bool(failed)
        if self._bar is not None:
            self._bar.set_postfix_str(f"failed {self.failed}", refresh=False)
            self._bar.update(1)
        elif not self._quiet and (self.done % self._every == 0 or self.done == self.total):
            end = "" if self._interactive() and self.done < self.total else "\n"
            prefix = "\r" if self._interactive() else ""
            print(f"{prefix}{self.line()}", end=end, file=self.stream, flush=True)

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        return f"graded {self.done}/{self.total}, {self.failed} failed, about {left:.0f} s left"

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def _interactive(self) -> bool:
        return hasattr(self.stream, "isatty") and self.stream.isatty()


def _tqdm(total: int, stream):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc="grading", unit="sub", file=stream, dynamic_ncols=True,
                postfix="failed 0")
