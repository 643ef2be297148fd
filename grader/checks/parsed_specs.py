"""The parsed specs of an exercises folder, kept by `vitgrade compile` in one file, so that loading
the catalogue reads one small file, parses no YAML and compiles no schema (catalogue.py):

    <exercises>/compiled/catalogue.parsed
    {"format": 1, "parser": "<hash of grader/spec/ and the schema: spec_file.version()>",
     "specs": {"patchify.yaml": {"sha256": "<of the spec file's bytes>", "data": {...},
                                 "lines": [[*path, line], ...]},   one spec a line, by name
               ...}}

A spec's entry is what `spec_file.read_spec` made of it, used only while the sha256 of the spec
file's bytes and the parser's version match: a checkout sets every file's time, so the key is the
bytes (reading and hashing the shipped 17 specs: ~0.2 ms). It is JSON named so that no spec's
compiled index (`<stem>.json`, compiled.py) can have its name. It holds data only, like
the rest of `compiled/`, and is written by the instructor, never by a run.
"""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

FORMAT = 1
NAME = "catalogue.parsed"
FOLDER = "compiled"  # the compiled data's folder beside the specs (compiled.py's too)


def path_of(folder: str | Path) -> Path:
    """The kept specs' file of the exercises folder `folder`."""
    return Path(folder) / FOLDER / NAME


def entry(spec: Path, data: dict, lines: dict) -> dict | None:
    """A spec's entry, or None when JSON would not give back the same data (a key that is not a
    string, a NaN, which equals nothing): such a spec is parsed on every run. An infinity (a
    masked score, -.inf in YAML) is kept as Python's json writes and reads it, -Infinity."""
    kept = {"data": data, "lines": [[*where, line] for where, line in lines.items()]}
    try:
        same = json.loads(json.dumps(kept)) == kept
    except (TypeError, ValueError):
        return None
    return {"sha256": hashlib.sha256(Path(spec).read_bytes()).hexdigest(), **kept} if same else None


def checked_spec(spec: Path) -> tuple[dict, dict] | None:
    """(data, lines) of the spec file `spec` as read_spec gave them when `vitgrade compile` kept
    them, or None (nothing kept, another parser's, or the spec changed since: it is parsed)."""
    spec = Path(spec)
    kept = kept_specs(spec.parent).get(spec.name)
    try:
        if not isinstance(kept, dict) or not isinstance(kept["data"], dict):
            return None
        lines = {tuple(where[:-1]): int(where[-1]) for where in kept["lines"]}
        if kept["sha256"] != hashlib.sha256(spec.read_bytes()).hexdigest():
            return None
    except (KeyError, TypeError, ValueError, IndexError, OSError):
        return None
    return kept["data"], lines


def state(spec: Path) -> str:
    """'fresh', 'missing' (nothing kept: the spec is parsed on every run) or 'stale'."""
    spec = Path(spec)
    if spec.name not in stored(spec.parent).get("specs", {}):
        return "missing"
    return "fresh" if checked_spec(spec) is not None else "stale"


def kept_specs(folder: Path) -> dict:
    """name -> entry of the specs kept for `folder` by this version of the parser ({} when none
    are), read once per process while the file is unchanged."""
    from .spec_file import version

    kept = stored(folder)
    if kept.get("format") != FORMAT or kept.get("parser") != version():
        return {}
    return kept["specs"] if isinstance(kept.get("specs"), dict) else {}


def stored(folder: Path) -> dict:
    """The file of `folder` as it is ({} when missing or not a JSON object)."""
    path = path_of(folder)
    try:
        info = path.stat()
    except OSError:
        return {}
    return _read(path, info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=16)
def _read(path: Path, *stamp) -> dict:
    return _load(path)


def _load(path: Path) -> dict:
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def write(folder: Path, entries: dict[str, dict | None], keep: set[str] | None = None
          ) -> list[Path]:
    """Set each named spec's entry (None: remove it) and, given `keep`, remove those of specs
    not in it (deleted specs); the file is written only when its bytes change. Returns it then."""
    from .spec_file import version

    old = _load(path_of(folder))  # not the cached copy: two writes may share a time and a size
    specs = dict(old.get("specs", {})) if old.get("format") == FORMAT else {}
    for name, kept in entries.items():
        if kept is None:
            specs.pop(name, None)
        else:
            specs[name] = kept
    if keep is not None:
        specs = {name: kept for name, kept in specs.items() if name in keep}
    lines = [f"{json.dumps(name)}: {json.dumps(specs[name])}" for name in sorted(specs)]
    text = (f'{{"format": {FORMAT}, "parser": {json.dumps(version())},\n "specs": {{\n'
            + ",\n".join(lines) + "\n}}\n")
    path = path_of(folder)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return [path]
