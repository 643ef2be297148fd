"""Exercise specs' format: read YAML with the line of every value, check it against the shipped
schema, say where it is wrong. Building and validating an `Exercise`: grader/checks/catalogue.py.
"""
from .errors import SpecError
from .parse import parse_spec, spec_files

__all__ = ["SpecError", "parse_spec", "spec_files"]
