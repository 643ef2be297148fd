"""vit-grader: grade Vision Transformer exercises (lecture 4.2) against a numpy reference ViT.

The public API, and all of it; everything else may change:

    check(exercise=None)           grade the live notebook/session namespace (visible cases only)
    ViT, ViTConfig, init_params    the numpy reference model
    REFERENCE                      the reference function of every student-API name
    load_spec, load_specs          read and validate exercise specs (SpecError names file:line)

Names are loaded on first use, so `import grader` (and the pytest plugin) stays cheap.
"""
from __future__ import annotations

_WHERE = {"check": "grader.notebook_check", "ViT": "grader.reference",
          "ViTConfig": "grader.reference", "init_params": "grader.reference",
          "REFERENCE": "grader.reference", "load_spec": "grader.checks.catalogue",
          "load_specs": "grader.checks.catalogue", "SpecError": "grader.spec"}
__all__ = list(_WHERE)
_NAMED = {"load_spec": "load_exercise", "load_specs": "load_exercises"}  # as the loader calls them


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'grader' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_WHERE[name]), _NAMED.get(name, name))
