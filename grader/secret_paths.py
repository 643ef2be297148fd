"""What student code must not see, decided in one place (worker/hiding.py uses the list): the
reference (the lab's solution), the specs and what is compiled beside them, the instructor's
solutions and the grader's own outputs, each in every copy a run could reach (docs/security.md,
"Hiding by allowlist", lists them). A path that does not exist (a results file not written yet)
is the worker's to skip.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from grader.spec.locate import installed_exercises

DIST_INFO_NAME = "vit_grader"  # the distribution "vit-grader", as its .dist-info folder is named
# in a `grader` package: the reference, the shipped specs, compiled expectations
PACKAGE_SECRETS = ("reference", "_exercises", "_compiled")
# in the project a package sits in or was installed from (a checkout, a Gradescope source folder)
PROJECT_SECRETS = ("solutions", "exercises", "build", ".git", "grader/reference",
                   "grader/_exercises", "grader/_compiled")


def hidden_paths(settings) -> tuple[str, ...]:
    """Every path the worker must not see during this run, resolved (the worker compares them
    with its own folders, resolved too), each once."""
    packages = grader_packages()
    exercises = Path(settings.exercises).absolute()
    projects = {package.parent for package in packages} | installed_from() | {exercises.parent}
    paths = [exercises, installed_exercises(),
             *(package / name for package in packages for name in PACKAGE_SECRETS),
             *(project / name for project in sorted(projects) for name in PROJECT_SECRETS),
             *output_paths(settings)]
    return tuple(dict.fromkeys(os.path.realpath(path) for path in paths))


def output_paths(settings) -> list[Path]:
    """Where this run writes what students must not read before it is theirs: results files,
    GitHub's output file, and what the run adds (grade-all: its --out folder, with every
    student's results and feedback, and the class's submissions)."""
    outs = [settings.json_out, settings.prairielearn_out, *settings.also_hidden]
    if settings.classroom and os.environ.get("GITHUB_OUTPUT"):
        outs.append(Path(os.environ["GITHUB_OUTPUT"]))
    return [Path(out).absolute() for out in outs if out]


def grader_packages() -> list[Path]:
    """The `grader` package in use and every other one on sys.path (a second checkout, a wheel)."""
    import grader

    found = [Path(grader.__file__).resolve().parent]
    for entry in sys.path:
        candidate = Path(entry or ".").absolute() / "grader"
        if (candidate / "__init__.py").is_file() and candidate.resolve() not in found:
            found.append(candidate.resolve())
    return found


def installed_from() -> set[Path]:
    """The folder the installed distribution was built from, when pip recorded one in its
    `vit_grader-*.dist-info/direct_url.json` (an editable install, `pip install .`): its sources
    hold the reference and the specs too. Read by hand: importlib.metadata costs ~25 ms."""
    for entry in sys.path:
        for info in sorted(Path(entry or ".").glob(f"{DIST_INFO_NAME}-*.dist-info")):
            try:
                recorded = (info / "direct_url.json").read_text(encoding="utf-8")
                url = urlparse(json.loads(recorded)["url"])
            except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
                return set()
            return {Path(unquote(url.path))} if url.scheme == "file" else set()
    return set()
