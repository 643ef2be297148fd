"""Instructor tools on top of the specs: the student question sheet and new-spec scaffolding.

`render_sheet(exercises)` writes the markdown of docs/exercises.md (`vitgrade render`);
`scaffold_spec(id, call=...)` writes the YAML of a new exercise that validates (`vitgrade new`).
"""
from .render import render_sheet
from .scaffold import scaffold_spec

__all__ = ["render_sheet", "scaffold_spec"]
