"""The kinds of check: one module each, a registry by spec key, and a spec that names a kind
wrongly gets one file:line message that says what to write instead."""
from __future__ import annotations

import ast
import re
import textwrap

import pytest

from grader import load_spec
from grader.checks.kinds import KINDS
from grader.checks.kinds.base import Kind
from grader.checks.spec_file import KINDS_FOLDER, schema
from grader.cli import main
from grader.spec import SpecError

from conftest import ROOT

ONE_OF_EACH = textwrap.dedent("""\
    id: kinds
    title: One check of each kind
    lecture: Practice 1
    uses: [num_patches, softmax, ANSWERS]
    checks:
      - name: a call
        call: num_patches
        cases:
          - args: [32, 32, 8]
            expect: 16
      - name: an answer
        answer:
          key: tiling
          correct: pad
          options: {pad: right, overlap: wrong}
      - name: a property
        property: softmax_sums_to_one
    """)


def write(tmp_path, text: str, name: str = "t.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_spec_key_of_the_registry_has_its_schema_branch_beside_it_and_no_other():
    assert sorted(p.stem for p in KINDS_FOLDER.glob("*.json")) == sorted(KINDS)
    check = schema()["$defs"]["check"]
    keys = [branch["required"][0] for branch in check["oneOf"]]
    branches = {rule["if"]["required"][0]: rule["then"]["$ref"] for rule in check["allOf"]}
    assert keys == list(branches) == list(KINDS)  # in the registry's order
    for key, ref in branches.items():
        taken = schema()["$defs"][ref.rsplit("/", 1)[1]]["properties"]
        assert key in taken and set(check["properties"]) - {"integration"} <= set(taken), key


@pytest.mark.parametrize("key", sorted(KINDS))
def test_a_kinds_parsing_validation_and_grading_live_in_its_own_module(key):
    kind = KINDS[key]
    assert issubclass(kind, Kind) and key == kind.KEY
    for method in ("from_yaml", "grade", "names_read"):
        assert getattr(kind, method).__module__ == f"grader.checks.kinds.{key}", method


def test_each_check_is_built_as_the_kind_its_key_names(tmp_path):
    exercise = load_spec(write(tmp_path, ONE_OF_EACH))
    assert [type(c) for c in exercise.checks] == [KINDS["call"], KINDS["answer"],
                                                   KINDS["property"]]
    assert [c.names_read() for c in exercise.checks] == [("num_patches",), ("ANSWERS",),
                                                         ("softmax",)]


CHECK_NAMES = {"check", "c", "loaded", "kind"}  # what the grader calls a check it holds


def _kind_own_names() -> set[str]:
    """What a kind class defines and `Kind` (so `Check`) does not: its fields and methods."""
    return {name for kind in KINDS.values() for name in set(dir(kind)) - set(dir(Kind))
            if not name.startswith("__")}


def _defined_by_classes(trees) -> set[str]:
    """The names a class of these modules defines too (a field, a method, `self.x = ...`)."""
    names = set()
    for tree in trees:
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(node.name)
                for target in (node.targets if isinstance(node, ast.Assign) else
                               [node.target] if isinstance(node, ast.AnnAssign) else []):
                    if isinstance(target, ast.Name):
                        names.add(target.id)
                    elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                          and target.value.id == "self"):
                        names.add(target.attr)
    return names


def _kind_questions(root) -> list[str]:
    """Every place outside grader/checks/kinds/ that reads a kind's own field or method
    (`x.attr`, `getattr(x, "attr")`, `hasattr`) or imports a kind class or module. A name that
    another class of the grader defines too (`StudentApi.misconceptions`) is a kind's only on a
    receiver named as the grader names a check (CHECK_NAMES); `self.attr` is the object's own."""
    modules = {path: ast.parse(path.read_text(encoding="utf-8"))
               for path in sorted((root / "grader").rglob("*.py"))
               if "kinds" not in path.relative_to(root).parts}
    own = _kind_own_names()
    shared = own & _defined_by_classes(modules.values())
    classes = {kind.__name__ for kind in KINDS.values()}
    # kinds.call, ...: however the module is written (grader.checks.kinds.call, .kinds.call)
    kind_modules_tails = {".".join(kind.__module__.split(".")[-2:]) for kind in KINDS.values()}

    def asks(receiver, name: str) -> bool:
        if name not in own or (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")):
            return False
        return name not in shared or (isinstance(receiver, ast.Name) and receiver.id in CHECK_NAMES)

    found = []
    for path, tree in modules.items():
        for node in ast.walk(tree):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Attribute) and asks(node.value, node.attr):
                found.append(f"{where}: .{node.attr}")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                  and isinstance(node.args[1], ast.Constant)
                  and asks(node.args[0], str(node.args[1].value))):
                found.append(f"{where}: {node.func.id}(..., {node.args[1].value!r})")
            elif isinstance(node, ast.Compare) and any(  # check.KEY == "call"
                    isinstance(side, ast.Constant) and side.value in KINDS
                    for side in [node.left, *node.comparators]) and any(
                    isinstance(side, ast.Attribute) and side.attr in ("KEY", "kind")
                    for side in [node.left, *node.comparators]):
                found.append(f"{where}: compares a kind's key")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                taken = {alias.name for alias in node.names}
                module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
                named = {f"{module}.{name}" for name in taken} | {module} if module else taken
                if taken & classes or any(f".{m}".endswith(f".{tail}")
                                          for m in named for tail in kind_modules_tails):
                    found.append(f"{where}: imports a kind")
    return found


def test_no_module_outside_the_kinds_asks_which_kind_a_check_is():
    """A kind's own field or method read elsewhere, or its class imported, is a dispatch the
    kind should answer through a method of `Kind` (kinds/base.py)."""
    assert _kind_questions(ROOT) == []


def test_the_guard_finds_each_way_of_asking(tmp_path):
    (tmp_path / "grader").mkdir()
    (tmp_path / "grader" / "x.py").write_text(textwrap.dedent("""\
        from grader.checks.kinds import CallCheck
        from .kinds.call import Case
        class Api:
            misconceptions = ()
        seen = [check.misconceptions, api.misconceptions, check.plan, x.reference_name]
        name = getattr(c, "reference_name", None) or hasattr(x, "property_name")
        if check.KEY == "call":
            pass
        """))
    assert sorted(_kind_questions(tmp_path)) == sorted(f"grader/x.py:{found}" for found in [
        "1: imports a kind", "2: imports a kind", "5: .misconceptions", "5: .reference_name",
        "6: getattr(..., 'reference_name')", "6: hasattr(..., 'property_name')",
        "7: compares a kind's key"])  # api.misconceptions: Api's; check.plan: Kind's


def test_validate_rejects_a_call_that_is_not_a_student_api_name(tmp_path, capsys):
    text = ONE_OF_EACH.replace("call: num_patches", "call: patch_dims").replace(
        "uses: [num_patches,", "uses: [patch_dims, num_patches,")
    folder = tmp_path / "exercises"
    folder.mkdir()
    write(folder, text)
    assert main(["validate", str(folder)]) == 1
    line = text.splitlines().index("    call: patch_dims") + 1
    assert (f"t.yaml:{line}: unknown student-API function 'patch_dims'; did you mean "
            "'patch_dim'?") in capsys.readouterr().out


@pytest.mark.parametrize("check, added, suggested", [
    ("call: num_patches", "tolerence: 1.0e-3", "compare"),   # by the words of compare's meaning
    ("call: num_patches", "cases_: []", "cases"),
    ("property: softmax_sums_to_one", "optoins: {}", "options"),
    ("name: an answer", "hnit: x", "hint"),
])
def test_a_misspelt_key_suggests_the_closest_key_of_its_kind(tmp_path, check, added, suggested):
    text = re.sub(rf"(?m)^(  - |    ){check}\n", rf"\g<0>    {added}\n", ONE_OF_EACH)
    with pytest.raises(SpecError) as info:
        load_spec(write(tmp_path, text), display_path="t.yaml")
    line = text.splitlines().index(f"    {added}") + 1
    assert info.value.line == line
    assert f"unknown key '{added.split(':')[0]}' in checks[" in info.value.message
    assert f"did you mean '{suggested}'?" in info.value.message


def test_a_key_of_another_kind_is_refused(tmp_path):
    text = ONE_OF_EACH.replace("    property: softmax_sums_to_one\n",
                               "    property: softmax_sums_to_one\n    generate: {generator: x}\n")
    with pytest.raises(SpecError, match=r"t.yaml:\d+: unknown key 'generate' in checks\[2\]"):
        load_spec(write(tmp_path, text), display_path="t.yaml")


def test_two_kinds_in_one_check_are_refused_as_such(tmp_path):
    text = ONE_OF_EACH.replace("    property: softmax_sums_to_one\n",
                               "    property: softmax_sums_to_one\n    call: softmax\n")
    with pytest.raises(SpecError, match="checks\\[2\\] needs exactly one of 'call', 'answer' "
                                        "or 'property'"):
        load_spec(write(tmp_path, text), display_path="t.yaml")
