"""Validate spec data against the shipped JSON Schema (`schema.json`).

fastjsonschema (a dependency of nbformat) turns the schema into Python code, ten times
faster to import than jsonschema. Valid specs, the common case, go through a lean
validator; only a failing spec pays for the detailed one that explains the error.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources


def schema() -> dict:
    text = resources.files("grader.spec").joinpath("schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=2)
def validator(detailed: bool = False):
    """A function that raises fastjsonschema.JsonSchemaValueException on invalid data."""
    import fastjsonschema

    return fastjsonschema.compile(schema(), detailed_exceptions=detailed)


def first_error(data):
    """The first schema violation in `data` (a JsonSchemaValueException), or None."""
    try:
        validator()(data)
        return None
    # JsonSchemaValueException, caught by its base: a cached validator may predate a re-import
    except ValueError:
        pass
    try:
        validator(detailed=True)(data)
    except ValueError as exc:
        return exc
    return None  # pragma: no cover - both validators share one schema
