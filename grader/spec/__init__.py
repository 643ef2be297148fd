"""Exercise specs' format: read YAML with the line of every value, check it against the shipped
schema, say where it is wrong. Reading a spec file: grader/checks/spec_file.py; building one:
grader/checks/catalogue.py.
"""
from .errors import SpecError
from .parse import spec_files

__all__ = ["SpecError", "spec_files"]
