"""The package's shape, as docs/architecture.md promises it: no import cycle between modules, no
private name imported from another module, and no module over 500 lines. Read from the source
with `ast` (nothing is imported), so a new module is covered the day it is added."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "grader"
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for each import of the package's modules,
    wherever it stands (an import inside a function still makes a dependency)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [alias.name for alias in node.names]
            # `from grader.checks import course` imports the module grader.checks.course
            submodules = [n for n in names if f"{base}.{n}" in MODULES]
            found += [(f"{base}.{n}", [], node.lineno) for n in submodules]
            found.append((base, [n for n in names if n not in submodules], node.lineno))
    return [(module, names, line) for module, names, line in found if module in MODULES]


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycle() -> list[str] | None:
    """One import cycle among the package's modules (the modules in order), None if there is none.
    A package's __init__ importing its own submodules is not a cycle of the design."""
    edges = {name: {m for m, _, _ in GRAPH[name]
                    if m != name and not m.startswith(name + ".")} for name in MODULES}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for start in sorted(MODULES):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_package_has_no_import_cycle():
    cycle = _cycle()
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle(monkeypatch):
    a, b = "grader.cli", "grader.report.escape"
    monkeypatch.setitem(GRAPH, a, GRAPH[a] + [(b, [], 1)])
    monkeypatch.setitem(GRAPH, b, GRAPH[b] + [(a, [], 1)])
    assert _cycle() is not None


def test_no_private_name_is_imported_from_another_module():
    private = [f"{MODULES[name].relative_to(PACKAGE.parent)}:{line}: {n} from {module}"
               for name in MODULES for module, names, line in GRAPH[name]
               for n in names if n.startswith("_") and not n.startswith("__") and module != name]
    assert not private, "\n".join(private)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_500_lines(name):
    lines = len(MODULES[name].read_text().splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it by what its parts do"


def test_every_package_of_the_grader_ships_in_the_wheel():
    """pyproject.toml lists its packages by name: a new folder left out of it is missing from
    every `pip install .` (the Actions example, Gradescope), and only there."""
    import tomllib

    root = PACKAGE.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(init.parent.relative_to(root).parts)
             for init in PACKAGE.rglob("__init__.py") if "__pycache__" not in init.parts}
    assert found - listed == set()
