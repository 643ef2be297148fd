"""The kinds of check, one module each, and the registry: spec key -> kind. The loader
(catalogue.py) builds a check with `build_check`; everything after that asks the check itself
(the protocol in base.py). Adding a kind: docs/authoring.md, section 3.
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
