"""The kinds of check: one module each, a registry by spec key, and a spec that names a kind
wrongly gets one file:line message that says what to write instead."""
from __future__ import annotations

import re
import textwrap

import pytest

from grader import load_spec
from grader.checks.kinds import KINDS
from grader.checks.kinds.base import Kind
from grader.cli import main
from grader.spec import SpecError
from grader.spec.parse import schema

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


def test_every_spec_key_of_the_registry_has_its_schema_branch_and_no_other():
    check = schema()["$defs"]["check"]
    keys = [branch["required"][0] for branch in check["oneOf"]]
    branches = {rule["if"]["required"][0]: rule["then"]["$ref"] for rule in check["allOf"]}
    assert sorted(keys) == sorted(branches) == sorted(KINDS)
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


def test_no_module_outside_the_kinds_asks_which_kind_a_check_is():
    """`kind == "call"`, a kind's class or a kind's own field read elsewhere is a dispatch the
    kind's module should answer."""
    asks = re.compile(r"\.kind\b.*[=!]= ?\"(call|answer|property)\"|\b(CallCheck|AnswerCheck|"
                      r"PropertyCheck)\b|\.(answer_key|answer_options|property_name)\b|"
                      r"check\.call\b")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "grader").rglob("*.py"))
             if "kinds" not in path.parts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if asks.search(line)]
    assert found == []


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
