"""Read YAML into plain data plus a map from each value's path to its line.

Why: a spec error must name the line it is on, and PyYAML's plain loaders forget
lines. We compose the node tree once and build both from it.
"""
from __future__ import annotations

import re

import yaml

from .errors import SpecError


# libyaml parses ~10x faster when present
class SpecLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """Safe YAML, plus YAML 1.2's floats: `1e-3` is a number, as an instructor means it
    (YAML 1.1, PyYAML's default, reads it as the string '1e-3')."""


SpecLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]+$"), list("-+0123456789."))
Path = tuple  # a path into the data: keys and list indices, e.g. ("checks", 2, "call")


def load_yaml_with_lines(text: str, filename: str) -> tuple[object, dict[Path, int]]:
    """Parse `text`; return (data, {path: 1-based line}). Raises SpecError on bad YAML."""
    try:
        node = yaml.compose(text, Loader=SpecLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise SpecError(filename, line, f"this is not valid YAML: {problem}") from None
    if node is None:
        raise SpecError(filename, 1, "the file is empty: a spec needs at least id, title, "
                                     "lecture, uses and checks")
    lines: dict[Path, int] = {}
    constructor = yaml.SafeLoader("")
    data = _build(node, (), lines, constructor, filename)
    return data, lines


def _build(node, path: Path, lines: dict, constructor, filename: str):
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = constructor.construct_object(key_node, deep=True)
            if key in out:
                raise SpecError(filename, key_node.start_mark.line + 1,
                                f"the key '{key}' appears twice")
            out[key] = _build(value_node, path + (key,), lines, constructor, filename)
            lines[path + (key,)] = key_node.start_mark.line + 1  # the key's line reads best
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), lines, constructor, filename)
                for i, item in enumerate(node.value)]
    return constructor.construct_object(node, deep=True)
