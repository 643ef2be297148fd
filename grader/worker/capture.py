"""Student output: kept to a byte budget per call, and never able to block or reach the socket.

fds 1 and 2 (C code, subprocesses) are the output file the grading side handed over (sandbox.py);
sys.stdout and sys.stderr write to it through a byte budget, so printing 50 MB costs nothing
beyond the first `limit` bytes. What C code writes straight to fds 1 and 2 is bounded by the
file-size limit instead. The grading side reads the same file after a worker died.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys


def read_captured(fd: int, limit: int, dropped: int = 0) -> str:
    """What the output file `fd` holds, cut at `limit` bytes (`dropped`: bytes already dropped)."""
    size = os.fstat(fd).st_size
    text = os.pread(fd, min(size, limit), 0).decode("utf-8", "replace") if size else ""
    if size > limit or dropped:
        text += f"\n[... output truncated: only the first {limit} bytes are kept]"
    return text


class OutputCapture:
    """sys.stdout and sys.stderr of the worker, and what a call printed (`reset`, `collect`)."""

    def __init__(self, limit: int):
        self.limit, self.room, self.dropped = limit, limit, 0
        self.empty = False  # nothing was written since the file was last emptied
        sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = sys.__stdout__ = _CappedStream(self, 1)
        sys.stderr = sys.__stderr__ = _CappedStream(self, 2)

    def reset(self) -> None:
        """Empty the output file before a call."""
        self.room, self.dropped = self.limit, 0
        if self.empty:  # most calls print nothing: two system calls saved per call
            return
        # OSError: the student closed fd 1; their output is gone, the answers are not
        with contextlib.suppress(OSError):
            os.lseek(1, 0, os.SEEK_SET)
            os.ftruncate(1, 0)

    def collect(self) -> str:
        try:
            text = read_captured(1, self.limit, self.dropped)
        except OSError:
            text = ""
        self.empty = text == ""  # (C code that moved fd 1's offset can only garble its own output)
        return text

    def write(self, fd: int, data: bytes) -> None:
        kept = data[: self.room]
        self.dropped += len(data) - len(kept)
        self.room -= len(kept)
        while kept:
            kept = kept[os.write(fd, kept) :]


class _CappedStream(io.TextIOBase):
    """One of sys.stdout and sys.stderr (see OutputCapture)."""

    encoding = "utf-8"

    def __init__(self, capture: OutputCapture, fd: int):
        self._capture, self._fd = capture, fd

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        kept = text[: self._capture.room]  # a character is at least one byte
        self._capture.dropped += len(text) - len(kept)
        if kept:
            self._capture.write(self._fd, kept.encode("utf-8", "replace"))
        return len(text)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._fd
