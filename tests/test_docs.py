"""Every example in docs/ is run: YAML specs load and validate, literal answers are the reference's.

A ```yaml block is a complete exercise spec, unless the line before it is
`<!-- fragment: a check -->`: then it is one entry of `checks:`, validated inside a minimal
exercise; or `<!-- course.yaml -->`: then it is a course's settings (grader/checks/course_file.py).
Python examples that show shipped code must be that code.
"""
from __future__ import annotations

import inspect
import re
import textwrap

import pytest

from grader import load_spec
from grader.checks import inputs
from grader.checks.api import student_api
from grader.checks.catalogue import spec_problems
from grader.checks.compare import Compare, compare
from grader.checks.course import reference_function
from grader.checks.kinds import CallCheck
from grader.checks.properties import PROPERTY_CALLS

from conftest import EXERCISES, ROOT, misconceptions_of

DOCS = ROOT / "docs"
FRAGMENT = "<!-- fragment: a check -->"
COURSE_FILE = "<!-- course.yaml -->"
FILE = re.compile(r"<!-- file: (\S+)")  # the block is that file (docs/authoring.md, section 4)
COURSE_REFERENCE = "exercises/reference/"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
AROUND_A_CHECK = textwrap.dedent("""\
    id: docs-fragment
    title: A check from the docs
    lecture: docs
    uses: [{uses}]
    checks:
    """)


def blocks(language: str, marked: str | None = None) -> list[tuple[str, int, str, bool]]:
    """(doc name, line of the fence, text, is a fragment) of every ```language block in docs/
    (`marked`: only those whose line before is that; else those of no other mark)."""
    found = []
    for doc in sorted(DOCS.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if match.group(1) == language:
                before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
                if (before.strip() == marked) != (marked is not None) or (
                        marked is None and before.strip() == COURSE_FILE):
                    continue
                line = text.count("\n", 0, match.start()) + 1
                found.append((doc.name, line, match.group(2), before.strip() == FRAGMENT))
    return found


YAML_BLOCKS = blocks("yaml")
COURSE_BLOCKS = blocks("yaml", COURSE_FILE)


@pytest.mark.parametrize("doc, line, text, fragment", COURSE_BLOCKS,
                         ids=[f"{doc}:{line}" for doc, line, *_ in COURSE_BLOCKS])
def test_a_course_file_example_is_read_without_a_problem(tmp_path, doc, line, text, fragment):
    from grader.checks.course_file import course_settings

    (tmp_path / "course.yaml").write_text(text, encoding="utf-8")
    settings = course_settings(tmp_path)
    assert not settings.problems and settings.feedback, [str(p) for p in settings.problems]


def doc_files(doc: str) -> dict[str, str]:
    """path -> text of each block of `doc` whose line before is `<!-- file: PATH -->`."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    found = {}
    for match in BLOCK.finditer(text):
        named = FILE.match(text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1].strip())
        if named:
            found[named.group(1)] = match.group(2)
    return found


def write_example(folder, doc: str, text: str, fragment: bool):
    """The example as a spec in `folder`, with the course reference files its doc shows."""
    for name, source in doc_files(doc).items():
        if name.startswith(COURSE_REFERENCE) and "\nfunction:" in f"\n{text}":
            (folder / "reference").mkdir(exist_ok=True)
            (folder / "reference" / name[len(COURSE_REFERENCE):]).write_text(source)
    path = folder / "example.yaml"
    path.write_text(spec_text(text, fragment), encoding="utf-8")
    return path


def spec_text(text: str, fragment: bool) -> str:
    if not fragment:
        return text
    uses = re.findall(r"^\s*call: (\w+)", text, re.M) or ["ANSWERS"]
    for name in re.findall(r"^\s*property: (\w+)", text, re.M):
        uses += PROPERTY_CALLS[name]({}) if name in PROPERTY_CALLS else []
    if re.search(r"^\s*integration: true", text, re.M):  # the whole pipeline, as its doc says
        built_on = student_api(EXERCISES).built_on
        uses += [helper for name in uses for helper in built_on.get(name, ())]
    check = textwrap.indent(textwrap.dedent(text), "  ")
    return AROUND_A_CHECK.format(uses=", ".join(uses)) + check


def test_the_docs_have_yaml_examples_and_fragments():
    assert len(YAML_BLOCKS) >= 6
    assert any(fragment for *_, fragment in YAML_BLOCKS)
    assert any(not fragment for *_, fragment in YAML_BLOCKS)


@pytest.mark.parametrize("doc, line, text, fragment", YAML_BLOCKS,
                         ids=[f"{doc}:{line}" for doc, line, *_ in YAML_BLOCKS])
def test_a_yaml_example_loads_and_validates(tmp_path, doc, line, text, fragment):
    path = write_example(tmp_path, doc, text, fragment)
    _, problems = spec_problems(path, f"{doc}:{line}", build_inputs=True)
    assert [str(e) for e in problems] == []


@pytest.mark.parametrize("doc, line, text, fragment", YAML_BLOCKS,
                         ids=[f"{doc}:{line}" for doc, line, *_ in YAML_BLOCKS])
def test_a_yaml_example_states_what_the_reference_computes(tmp_path, doc, line, text, fragment):
    path = write_example(tmp_path, doc, text, fragment)
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


def test_the_error_model_operator_in_authoring_md_is_the_shipped_one():
    from grader.reference.error_model import operators

    shown = [text for doc, _, text, _ in blocks("python")
             if doc == "authoring.md" and "yield Change(" in text]
    assert shown == [inspect.getsource(operators.keepdims)]


def test_authoring_md_lists_every_error_model_operator_module_in_the_order_tried():
    """One item per module of `MODULES`, in its order: a TA finds a module's operators there,
    and a branch that adds a module adds a line of its own."""
    from grader.reference.error_model.modules import MODULES

    text = (DOCS / "authoring.md").read_text()
    section = text.split("### A new error model operator\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- \*\*`(\w+)\.py`\*\*: ", section, re.M)
    assert listed == [module.__name__.rsplit(".", 1)[1] for module in MODULES]


def test_no_line_of_the_docs_is_over_1000_characters():
    """A paragraph is wrapped (a line of 60,000 characters hid the operators and made every
    branch that added one conflict); a table row cannot be, so it is excepted."""
    long = [f"{doc.name}:{number}: {len(line)}"
            for doc in sorted(DOCS.glob("*.md"))
            for number, line in enumerate(doc.read_text().splitlines(), 1)
            if len(line) > 1000 and not line.startswith("|")]
    assert not long


def test_the_buggy_submission_headers_in_authoring_md_name_real_things():
    headers = [text for doc, _, text, _ in blocks("python")
               if doc == "authoring.md" and "\nEXPECT = " in text]
    assert len(headers) == 2  # section 1's, and section 4's for the course's own function
    shown: dict = {}  # what section 4's reference files define
    for name, source in doc_files("authoring.md").items():
        if name.startswith(COURSE_REFERENCE):
            exec(source, shown)
    known = set(misconceptions_of()) | set(shown.get("MISCONCEPTIONS", {}))
    functions = set(student_api(EXERCISES).signatures) | {n for n, v in shown.items()
                                                          if callable(v)}
    for header in headers:
        names: dict = {}
        exec(header, names)  # a docstring, a literal assignment, the buggy function
        assert set(names["EXPECT"].values()) <= known
        assert functions & set(names), header
    assert "num_patches" in "".join(headers)
