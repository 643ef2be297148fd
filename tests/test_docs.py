"""Every example in docs/ is run: YAML specs load and validate, literal answers are the reference's.

A ```yaml block is a complete exercise spec, unless the line before it is
`<!-- fragment: a check -->`: then it is one entry of `checks:`, validated inside a minimal
exercise. Python examples that show shipped code must be that code.
"""
from __future__ import annotations

import inspect
import re
import textwrap

import pytest

from grader import load_spec
from grader.checks import inputs
from grader.checks.api import BUILT_ON
from grader.checks.catalogue import spec_problems
from grader.checks.compare import Compare, compare
from grader.checks.course import reference_function
from grader.checks.kinds import CallCheck
from grader.checks.properties import PROPERTY_CALLS

from conftest import ROOT, misconceptions_of

DOCS = ROOT / "docs"
FRAGMENT = "<!-- fragment: a check -->"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
AROUND_A_CHECK = textwrap.dedent("""\
    id: docs-fragment
    title: A check from the docs
    lecture: docs
    uses: [{uses}]
    checks:
    """)


def blocks(language: str) -> list[tuple[str, int, str, bool]]:
    """(doc name, line of the fence, text, is a fragment) of every ```language block in docs/."""
    found = []
    for doc in sorted(DOCS.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if match.group(1) == language:
                before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
                line = text.count("\n", 0, match.start()) + 1
                found.append((doc.name, line, match.group(2), before.strip() == FRAGMENT))
    return found


YAML_BLOCKS = blocks("yaml")


def spec_text(text: str, fragment: bool) -> str:
    if not fragment:
        return text
    uses = re.findall(r"^\s*call: (\w+)", text, re.M) or ["ANSWERS"]
    for name in re.findall(r"^\s*property: (\w+)", text, re.M):
        uses += PROPERTY_CALLS[name]({}) if name in PROPERTY_CALLS else []
    if re.search(r"^\s*integration: true", text, re.M):  # the whole pipeline, as its doc says
        uses += [helper for name in uses for helper in BUILT_ON.get(name, ())]
    check = textwrap.indent(textwrap.dedent(text), "  ")
    return AROUND_A_CHECK.format(uses=", ".join(uses)) + check


def test_the_docs_have_yaml_examples_and_fragments():
    assert len(YAML_BLOCKS) >= 6
    assert any(fragment for *_, fragment in YAML_BLOCKS)
    assert any(not fragment for *_, fragment in YAML_BLOCKS)


@pytest.mark.parametrize("doc, line, text, fragment", YAML_BLOCKS,
                         ids=[f"{doc}:{line}" for doc, line, *_ in YAML_BLOCKS])
def test_a_yaml_example_loads_and_validates(tmp_path, doc, line, text, fragment):
    path = tmp_path / "example.yaml"
    path.write_text(spec_text(text, fragment), encoding="utf-8")
    _, problems = spec_problems(path, f"{doc}:{line}", build_inputs=True)
    assert [str(e) for e in problems] == []


@pytest.mark.parametrize("doc, line, text, fragment", YAML_BLOCKS,
                         ids=[f"{doc}:{line}" for doc, line, *_ in YAML_BLOCKS])
def test_a_yaml_example_states_what_the_reference_computes(tmp_path, doc, line, text, fragment):
    path = tmp_path / "example.yaml"
    path.write_text(spec_text(text, fragment), encoding="utf-8")
    for check in load_spec(path).checks:
        for case in check.cases if isinstance(check, CallCheck) else ():
            function = reference_function(check.reference_name, check.folder)
            args = [inputs.evaluate(a) for a in case.args]
            kwargs = {k: inputs.evaluate(v) for k, v in case.kwargs.items()}
            if case.raises:
                with pytest.raises(Exception) as raised:
                    function(*args, **kwargs)
                assert type(raised.value).__name__ == case.raises
            elif case.has_expect:
                how = check.compare or Compare("equal")
                assert compare(inputs.evaluate(case.expect), function(*args, **kwargs), how) is None


def test_the_property_check_in_authoring_md_is_the_shipped_one():
    from grader.checks import properties

    shown = [text for doc, _, text, _ in blocks("python")
             if doc == "authoring.md" and "@property_check" in text]
    assert shown == [inspect.getsource(properties.layer_norm_shift_invariant)]


def test_the_buggy_submission_header_in_authoring_md_names_real_things():
    header = [text for doc, _, text, _ in blocks("python")
              if doc == "authoring.md" and "\nEXPECT = " in text]
    assert len(header) == 1
    names: dict = {}
    exec(header[0], names)  # a docstring, a literal assignment, the buggy function
    assert set(names["EXPECT"].values()) <= set(misconceptions_of())
    assert "num_patches" in names
