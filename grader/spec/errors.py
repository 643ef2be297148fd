"""The one exception of the spec layer: a problem in a spec file, with where it is."""
from __future__ import annotations


class SpecError(Exception):
    """A bad exercise spec. `str()` is one line: `file:line: message`."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
