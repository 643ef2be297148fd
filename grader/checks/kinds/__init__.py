"""The kinds of check, one module each, and the registry: spec key -> kind.

A check's kind is the one key of these it has (`call:`, `answer:`, `property:`); the loader
(catalogue.py) builds it with `KINDS[key].from_yaml`, and everything after that asks the check
itself (the protocol in base.py). Adding a kind: a module here with its class on `Kind`, its
entry below, and its branch in grader/spec/schema.json (docs/authoring.md).
"""
from __future__ import annotations

from .answer import AnswerCheck
from .base import Kind
from .call import CallCheck
from .property import PropertyCheck

KINDS: dict[str, type[Kind]] = {kind.KEY: kind for kind in (CallCheck, AnswerCheck, PropertyCheck)}


def build_check(raw: dict, common: dict) -> Kind:
    """The check of the schema-checked YAML `raw`, of the kind its key names."""
    key = next(key for key in KINDS if key in raw)
    return KINDS[key].from_yaml(raw, common)
