"""The grader as an installable project tree: `pip install DEST` gives `vitgrade` and the plugin.

Used for Gradescope's autograder zip (with the full specs) and the student bundle (with the
visible ones). The tree is this running `grader` package (without the specs installed inside
it, `grader/_exercises`, and without caches), a pyproject.toml written from the installed
package's metadata, and an `exercises/` folder the caller fills, installed as `grader._exercises`.
"""
from __future__ import annotations

import importlib.metadata
import json
import re
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]     # the running `grader` package
DISTRIBUTION = "vit-grader"
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo", "_exercises", ".*")


def write_project(dest: Path, readme: str | None = None, leave_out: tuple[str, ...] = ()) -> Path:
    """Copy the package to DEST/grader, write DEST/pyproject.toml; returns DEST/exercises (to
    fill). `leave_out`: subpackages of grader/ not to copy (the student bundle's "reference")."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)

    def ignore(folder, names):
        skipped = set(SKIPPED(folder, names))
        if Path(folder).resolve() == PACKAGE:
            skipped |= set(leave_out) & set(names)
        return skipped

    shutil.copytree(PACKAGE, dest / "grader", ignore=ignore, dirs_exist_ok=True)
    (dest / "exercises").mkdir(exist_ok=True)
    if readme is not None:
        (dest / "README.md").write_text(readme, encoding="utf-8")
    (dest / "pyproject.toml").write_text(pyproject(dest, readme is not None), encoding="utf-8")
    return dest / "exercises"


def pyproject(dest: Path, has_readme: bool) -> str:
    meta = _metadata()
    packages = sorted(".".join(p.parent.relative_to(dest).parts)
                      for p in (dest / "grader").rglob("__init__.py"))
    lines = [  # a JSON list of strings is a TOML array
        "[build-system]",
        'requires = ["setuptools>=68"]',
        'build-backend = "setuptools.build_meta"',
        "",
        "[project]",
        f'name = "{DISTRIBUTION}"',
        f'version = "{meta["version"]}"',
        'description = "Automated exercise grader for the Vision Transformers week (lecture 4.2)."',
        'requires-python = ">=3.11"',
        f"dependencies = {json.dumps(meta['dependencies'])}",
    ]
    if has_readme:
        lines.append('readme = "README.md"')
    lines += ["", "[project.optional-dependencies]"]
    lines += [f"{name} = {json.dumps(requirements)}"
              for name, requirements in sorted(meta["extras"].items())]
    lines += ["", "[project.scripts]"]
    lines += [f'{name} = "{target}"' for name, target in sorted(meta["scripts"].items())]
    lines += ["", "[project.entry-points.pytest11]"]
    lines += [f'{name} = "{target}"' for name, target in sorted(meta["pytest11"].items())]
    lines += [
        "",
        "[tool.setuptools]",
        'package-dir = { "grader" = "grader", "grader._exercises" = "exercises" }',
        f"packages = {json.dumps(packages + ['grader._exercises'])}",
        "",
        "[tool.setuptools.package-data]",
        '"grader" = ["REFERENCE_VERSION"]',
        '"grader.spec" = ["*.json"]',
        '"grader.checks.kinds" = ["*.json"]',
        '"grader._exercises" = ["*.yaml", "*.yml", "**/*.json", "**/*.npz", "**/*.safetensors"]',
        "",
    ]
    return "\n".join(lines)


def _metadata() -> dict:
    """version, dependencies, extras, scripts and pytest11 entry points of vit-grader: from the
    checkout's pyproject.toml when this package runs from one, else from the installed metadata."""
    checkout = PACKAGE.parent / "pyproject.toml"
    if checkout.is_file():
        import tomllib

        project = tomllib.loads(checkout.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == DISTRIBUTION:
            return {"version": project["version"],
                    "dependencies": list(project.get("dependencies", [])),
                    "extras": dict(project.get("optional-dependencies", {})),
                    "scripts": dict(project.get("scripts", {})),
                    "pytest11": dict(project.get("entry-points", {}).get("pytest11", {}))}
    distribution = importlib.metadata.distribution(DISTRIBUTION)
    core, extras = [], {}
    for requirement in distribution.requires or []:
        match = re.match(r'^(.*?)\s*;\s*extra\s*==\s*"([^"]+)"\s*$', requirement)
        if match:
            extras.setdefault(match.group(2), []).append(match.group(1))
        else:
            core.append(requirement)
    points = distribution.entry_points
    return {"version": distribution.version, "dependencies": core, "extras": extras,
            "scripts": {e.name: e.value for e in points if e.group == "console_scripts"},
            "pytest11": {e.name: e.value for e in points if e.group == "pytest11"}}


def copy_spec_data(source: Path, dest: Path, paths: set[str] | None = None) -> None:
    """Copy what an exercises folder holds besides specs (checkpoints, samples): everything, or only
    the files and folders at `paths` (relative to `source`)."""
    source, dest = Path(source), Path(dest)
    if paths is None:
        paths = {e.name for e in source.iterdir() if not e.name.startswith(".")
                 and e.suffix not in (".yaml", ".yml") and e.name != "__pycache__"}
    for relative in sorted(paths):
        entry, target = source / relative, dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.is_dir():
            shutil.copytree(entry, target, ignore=SKIPPED, dirs_exist_ok=True)
        elif entry.is_file():
            shutil.copy2(entry, target)


def copy_course_file(source: Path, dest: Path) -> None:
    """The course's settings and setup code (course.yaml, setup.py: grader/checks/course_file.py),
    those it has: copied with the specs, so the autograder and the student bundle give the
    course's feedback levels and run its setup code."""
    from grader.checks.course_file import SETUP_FILE
    from grader.spec.parse import COURSE_FILE

    for name in (COURSE_FILE, SETUP_FILE):
        if (Path(source) / name).is_file():
            shutil.copy2(Path(source) / name, Path(dest) / name)
