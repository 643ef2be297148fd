"""The one reader of a spec file: YAML -> (data, line of each value), checked against the schema:
spec/schema.json with each kind's branch, kept beside the kind (kinds/<key>.json) and read as data,
so that course.py, which the kinds import, reads specs here too.
"""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from grader.spec.errors import SpecError
from grader.spec.parse import parse_spec

KINDS_FOLDER = Path(__file__).resolve().parent / "kinds"
SPEC_FOLDER = Path(__file__).resolve().parents[1] / "spec"  # schema.json: an exercise, any check


@functools.cache
def schema() -> dict:
    """The whole schema: each kind (kinds/<key>.json, by its `order`) is one of the check's
    `oneOf`, and a check with its key takes the keys of its `$defs/<key>_check` (`allOf`)."""
    whole = json.loads((SPEC_FOLDER / "schema.json").read_text(encoding="utf-8"))
    check = whole["$defs"]["check"]
    check["oneOf"], check["allOf"] = [], []  # fastjsonschema reads keywords in its own order
    branches = {p.stem: json.loads(p.read_text(encoding="utf-8"))
                for p in KINDS_FOLDER.glob("*.json")}
    for key, branch in sorted(branches.items(), key=lambda item: item[1]["order"]):
        check["oneOf"].append({"required": [key]})
        check["allOf"].append({"if": {"required": [key]}, "then": {"$ref": f"#/$defs/{key}_check"}})
        whole["$defs"].update(branch["$defs"])
    return whole


@functools.cache
def version() -> str:
    """A hash of what a spec's data depends on (grader/spec/'s code and the whole schema): data
    kept under another version (compiled.py) is read again."""
    digest = hashlib.sha256(json.dumps(schema(), sort_keys=True).encode())
    for source in sorted(SPEC_FOLDER.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def read_spec(path: str | Path, shown: str | None = None) -> tuple[dict, dict]:
    """(data, {path: line}) of the spec file `path`, valid against the schema; SpecError (named
    `shown`, default its path) for a file that cannot be read or is not a valid spec."""
    shown = shown or str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(shown, None, f"cannot read the spec: {exc}") from None
    return parse_spec(text, shown, schema())
