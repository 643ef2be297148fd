"""The one exception of the spec layer: a problem in a spec file, with where it is."""
from __future__ import annotations


class SpecError(Exception):
    """A bad exercise spec. `str()` is one line: `file:line: message`."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        self.more: list[SpecError] = []  # the file's other problems (parse.py), for `validate`
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


def unknown_name(path: str, line: int | None, what: str, name: str, known) -> SpecError:
    """"unknown generator 'tiling_sizez'; did you mean 'tiling_sizes'?": the closest names (as
    close as the closest, give or take a tenth)."""
    import difflib  # only for a spec's mistake: not on the grading path

    scored = sorted((-difflib.SequenceMatcher(None, name, n).ratio(), n) for n in known)
    close = [f"'{n}'" for score, n in scored[:3] if -score >= max(0.6, -scored[0][0] - 0.1)]
    tip = f"; did you mean {' or '.join(close)}?" if close else ""
    return SpecError(path, line, f"unknown {what} '{name}'{tip}")
