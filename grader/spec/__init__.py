"""Exercise specs: load YAML, validate it against the shipped schema, say where it is wrong."""
from .errors import SpecError
from .loader import load_spec, load_specs, spec_files
from .model import Case, Check, Compare, Exercise, Generate, Misconception

__all__ = ["SpecError", "load_spec", "load_specs", "spec_files", "Case", "Check", "Compare",
           "Exercise", "Generate", "Misconception"]
