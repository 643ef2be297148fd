"""Rewriting the grader: its package (a comparison that always agrees, a new module, a poisoned
.pyc) and the exercise specs (a check worth nothing). When the grader runs as root, the worker is
a user of its own that owns none of them: every write is denied, full marks (the function is
right), and the grader's files are unchanged."""
import os
from pathlib import Path

import grader  # the worker can import the grader's package: it is how it runs

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

SCRATCH = Path(__file__).parent / "scratch" / Path(__file__).stem


def _attempts(package: Path, specs: Path):
    yield "append", package / "__init__.py", "\nraise SystemExit('owned')\n"
    yield "replace", package / "checks" / "compare.py", "def compare(*args, **kwargs):\n    return None\n"
    yield "create", package / "evil.py", "OWNED = True\n"
    yield "create", package / "checks" / "__pycache__" / "compare.cpython-311.pyc", "poison"
    for spec in sorted(specs.glob("*.yaml")):
        yield "replace", spec, "id: owned\n"
    yield "create", specs / "owned.yaml", "id: owned\n"


def patch_dim(P, C=3):
    package = Path(grader.__file__).parent
    outcomes = []
    for how, path, text in _attempts(package, package.parent / "exercises"):
        try:
            if how == "append":
                with open(path, "a") as out:
                    out.write(text)
            else:
                if how == "replace":
                    os.chmod(path, 0o666)  # as the owner could
                path.write_text(text)
            outcomes.append(f"wrote {path}")
        except OSError as exc:
            outcomes.append(f"denied {path}: {exc.strerror}")
    (SCRATCH / f"attempt-{os.getpid()}").write_text("\n".join(outcomes))
    return P * P * C
