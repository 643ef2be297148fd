"""Instructor tools: the question sheet stays in sync with the specs, `vitgrade new` scaffolds
specs that validate, and docs/authoring.md's walk-through works as written."""
from __future__ import annotations

import re

import numpy as np
import pytest

from grader import load_spec, load_specs
from grader.authoring import render_sheet, scaffold_spec
from grader.authoring.scaffold import EXAMPLES, next_order
from grader.checks import grade_exercise
from grader.checks.api import student_api
from grader.checks.catalogue import sheet_exercise
from grader.checks.course import reference_function
from grader.checks.kinds import AnswerCheck, CallCheck
from grader.cli import main

from conftest import EXERCISES, ROOT, SOLUTION

SHEET = ROOT / "docs" / "exercises.md"
AUTHORING = ROOT / "docs" / "authoring.md"


@pytest.fixture(scope="module")
def sheet(catalogue):
    return render_sheet(catalogue)


@pytest.fixture(scope="module")
def solution_worker():
    from grader.worker import StudentWorker

    with StudentWorker(SOLUTION) as worker:
        yield worker


def test_the_question_sheet_is_in_sync_with_the_specs(sheet):
    assert SHEET.read_text(encoding="utf-8") == sheet, \
        "docs/exercises.md is out of date: run `vitgrade render`"


def test_the_sheet_lists_every_exercise_with_points_lecture_and_question(catalogue, sheet):
    for number, exercise in enumerate(catalogue, 1):
        assert f"## {number}. {exercise.title}\n" in sheet
        assert (f"`{exercise.id}` · {exercise.points:g} points · "
                f"lecture 4.2: {exercise.lecture}") in sheet
        # a question with variants shows its parameters' names, not variant 0's numbers
        assert sheet_exercise(exercise).question.strip().splitlines()[0] in sheet
    assert f"**{sum(e.points for e in catalogue):g}**" in sheet


def test_the_sheet_never_shows_hints_option_feedback_or_hidden_cases(catalogue, sheet):
    for exercise in catalogue:
        for check in exercise.checks:
            secrets = [check.hint or ""]
            if isinstance(check, CallCheck):
                secrets += [m.hint for m in check.misconceptions] + [c.hint for c in check.cases]
            if isinstance(check, AnswerCheck):
                secrets += list(check.options.values())
            for secret in filter(None, secrets):
                assert " ".join(secret.split()) not in " ".join(sheet.split()), secret
    assert ">>> patch_dim(14, 4)" not in sheet   # a hidden literal case of flatten-length


def test_every_call_check_has_a_checklist_to_fall_back_on(catalogue):
    """A failed check whose mistake no rewrite names shows at least the lecture's checklist
    (issue 38, round 36: multi-head-attention's "one head" and "several head counts" showed
    expected/got and no hint line at all). A call check's `hint:` is that checklist; a check
    whose every case is listed with its own hint (a refusal's) needs none. no-causal-mask's
    visible causal check has one too since round 57: it had none, so that its failure with no
    mistake named points at multi-head-attention, where the same function's checks say more, and
    it borrowed its hidden sibling's checklist where that one fails nowhere: the student bundle,
    which has no hidden check, showed no hint line at all there (round 56). The pointer is said in
    place of a checklist now (checks/dependencies.py, `_elsewhere`; tests/test_hedges.py)."""
    bare = {(exercise.id, check.name) for exercise in catalogue for check in exercise.checks
            if isinstance(check, CallCheck) and not check.hint
            and not (check.cases and check.generate is None
                     and all(case.hint for case in check.cases))}
    assert bare == set()


def test_every_example_on_the_sheet_gives_the_answer_shown(sheet):
    """The examples are code a student can paste: run them with the reference as the student."""
    from grader.checks.describe import sheet_value
    from grader.checks.inputs import evaluate

    namespace = {"np": np, "evaluate": evaluate,  # the shipped functions and the course's own
                 **{name: reference_function(name, EXERCISES)
                    for name in student_api(EXERCISES).signatures}}
    pairs = re.findall(r"^>>> (.*)\n(.*)$", sheet, re.MULTILINE)
    assert len(pairs) > 50
    for call, shown in pairs:
        if re.search(r"<[a-z]", call):
            continue  # an argument shown by its shape or origin (<array 4x4 float64>), not as code
        try:
            got = sheet_value(eval(call, namespace))
        except Exception as error:  # noqa: BLE001  (the sheet shows what it raises)
            got = f"raises {type(error).__name__}"
        assert got == shown, call


def test_render_check_fails_on_an_out_of_date_sheet(tmp_path, capsys):
    out = tmp_path / "exercises.md"
    assert main(["render", "--exercises", str(EXERCISES), "--out", str(out), "--check"]) == 1
    assert main(["render", "--exercises", str(EXERCISES), "--out", str(out)]) == 0
    assert main(["render", "--exercises", str(EXERCISES), "--out", str(out), "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


@pytest.mark.parametrize("call", sorted(EXAMPLES))
def test_a_scaffolded_spec_validates_and_the_solution_passes_it(tmp_path, call, solution_worker):
    path = tmp_path / "new-question.yaml"
    path.write_text(scaffold_spec("new-question", call=call))
    exercise = load_spec(path, build_inputs=True)
    result = grade_exercise(exercise, solution_worker)
    assert result.score == result.max_score > 0


def test_vitgrade_new_writes_after_the_last_exercise_and_refuses_to_overwrite(tmp_path, capsys):
    folder = tmp_path / "exercises"
    assert main(["new", "first-question", "--exercises", str(folder)]) == 0
    assert main(["new", "second-question", "--call", "softmax", "--exercises", str(folder)]) == 0
    assert load_spec(folder / "second-question.yaml").order == 110
    assert next_order(folder) == 120
    assert main(["new", "first-question", "--exercises", str(folder)]) == 1
    assert "exists" in capsys.readouterr().err
    assert main(["new", "Bad_Id", "--exercises", str(folder)]) == 2
    assert main(["new", "fine-id", "--call", "no_such_function", "--exercises", str(folder)]) == 2


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", AUTHORING.read_text(encoding="utf-8"), re.DOTALL)


def test_the_walkthroughs_question_validates_and_the_solution_gets_full_marks(
        tmp_path, solution_worker):
    spec = next(block for block in _blocks("yaml") if block.startswith("id: patches-small-image"))
    path = tmp_path / "patches-small-image.yaml"
    path.write_text(spec)
    exercise = load_spec(path, build_inputs=True)
    result = grade_exercise(exercise, solution_worker)
    assert result.score == result.max_score == 4


def test_the_walkthroughs_property_is_the_registered_one_and_its_spec_snippet_is_used():
    source = (ROOT / "grader" / "checks" / "properties.py").read_text(encoding="utf-8")
    code = next(block for block in _blocks("python") if "@property_check" in block)
    assert code.strip() in source
    snippet = next(block for block in _blocks("yaml")
                   if "property: layer_norm_shift_invariant" in block)
    assert snippet.strip() in (EXERCISES / "layer-norm.yaml").read_text(encoding="utf-8")


def test_the_walkthrough_names_every_registered_generator_and_property():
    from grader.checks.generators import GENERATORS
    from grader.checks.properties import PROPERTIES

    text = AUTHORING.read_text(encoding="utf-8")
    assert [name for name in [*GENERATORS, *PROPERTIES] if f"`{name}`" not in text] == []


def _add_answer(source: str, key: str, value: str) -> str:
    """What the walk-through says to do to a solution: an ANSWERS entry and its answer."""
    source = source.replace("ANSWERS = {\n", f'ANSWERS = {{\n    "{key}": None,\n', 1)
    end = source.index("### END SOLUTION", source.index("ANSWERS = {"))  # the region below it
    return f'{source[:end]}ANSWERS["{key}"] = "{value}"\n{source[end:]}'


def _grade_all(path, exercises) -> dict:
    from grader.worker import StudentWorker

    with StudentWorker(path) as worker:
        return {exercise.id: grade_exercise(exercise, worker) for exercise in exercises}


def test_a_question_added_as_the_walkthrough_says_keeps_the_catalogue_whole(tmp_path, capsys,
                                                                            monkeypatch):
    """docs/authoring.md, section 1, on a copy of the project: `vitgrade new`, the spec as
    written there, its multiple-choice check, the answer in the solution module and notebook,
    `vitgrade assign`; then the catalogue validates, the solution gets full marks, and every
    command of "Check it" leaves what CI checks true."""
    import shutil

    import nbformat
    import yaml

    project = tmp_path / "project"
    for folder in ("exercises", "solutions", "student_template"):
        shutil.copytree(ROOT / folder, project / folder)
    exercises, solutions = project / "exercises", project / "solutions"
    for done in [*exercises.glob("**/patches-small-image.*"),  # the walkthrough followed here
                 *exercises.glob("**/token-count-mine.*")]:
        done.unlink()
    before = len(load_specs(exercises)[0])
    assert main(["new", "patches-small-image", "--call", "num_patches",
                 "--exercises", str(exercises)]) == 0
    spec = next(block for block in _blocks("yaml") if block.startswith("id: patches-small-image"))
    choice = next(block for block in _blocks("yaml")
                  if block.lstrip().startswith("- name: ANSWERS"))
    spec = spec.replace("uses: [num_patches]", "uses: [num_patches, ANSWERS]")  # as it says
    (exercises / "patches-small-image.yaml").write_text(spec + choice, encoding="utf-8")
    mine = next(block for block in _blocks("yaml") if block.startswith("id: token-count-mine"))
    (exercises / "token-count-mine.yaml").write_text(mine, encoding="utf-8")  # with variants
    api = project / "docs" / "student-api.md"  # the contract gets the new key's row
    api.parent.mkdir()
    row = re.search(r"<!-- row: docs/student-api.md -->\n```text\n(.*?)\n```",
                    AUTHORING.read_text(encoding="utf-8"), re.S)[1]
    lines = (ROOT / "docs" / "student-api.md").read_text(encoding="utf-8").splitlines(True)
    at = max(i for i, line in enumerate(lines) if line.startswith('| `"'))
    api.write_text("".join(lines[:at + 1] + [row + "\n"] + lines[at + 1:]), encoding="utf-8")
    answer = yaml.safe_load(choice)[0]["answer"]
    module = solutions / "vit_exercises.py"
    module.write_text(_add_answer(module.read_text(), answer["key"], answer["correct"]))
    notebook = nbformat.read(solutions / "vit_exercises.ipynb", as_version=4)
    cell = next(c for c in notebook.cells if "ANSWERS = {" in c.source)
    cell.source = _add_answer(cell.source, answer["key"], answer["correct"])
    nbformat.write(notebook, solutions / "vit_exercises.ipynb")
    assert main(["assign", str(solutions), str(project / "student_template")]) == 0
    assert main(["assign", str(solutions), str(project / "student_template"), "--check"]) == 0
    assert main(["validate", str(exercises)]) == 0, capsys.readouterr()

    catalogue, errors = load_specs(exercises, build_inputs=True, every_problem=True)
    assert errors == [] and len(catalogue) == before + 2
    _holds_what_the_suite_asks(catalogue, module, api)
    for path in (module, solutions / "vit_exercises.ipynb"):
        results = _grade_all(path, catalogue)
        assert {i: r.score for i, r in results.items() if r.score < r.max_score} == {}, path.name
    template = _grade_all(project / "student_template" / "vit_exercises.py", catalogue)
    assert sum(r.score for r in template.values()) == 0
    _run_check_it(project, monkeypatch)


def _holds_what_the_suite_asks(catalogue, module, api) -> None:
    """What the suite asks of every question (test_catalogue, test_report_labels,
    test_student_api), of the questions as the page writes them."""
    import importlib.util

    from test_student_api import DOCUMENTED_KEY

    for exercise in catalogue:
        calls = [c for c in exercise.checks if isinstance(c, CallCheck)]
        assert all(m.title for c in calls for m in c.misconceptions), exercise.id
        if calls and exercise.id != "vit-checkpoint":
            assert any(not c.hidden and c.cases for c in calls), exercise.id
            assert any(c.hidden and c.generate for c in calls), exercise.id
    spec = importlib.util.spec_from_file_location("walked_solution", module)
    solution = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(solution)
    assert set(DOCUMENTED_KEY.findall(api.read_text(encoding="utf-8"))) == set(solution.ANSWERS)


def _run_check_it(project, monkeypatch) -> None:
    """Every `vitgrade` command of "Check it", in the project as written; then what CI checks of
    it holds: each spec's compiled data is fresh and the question sheet is current."""
    import shlex

    from grader.checks import compiled
    from grader.spec import spec_files

    block = next(b for b in _blocks("bash") if b.startswith("vitgrade validate"))
    commands = [shlex.split(line.split("#")[0]) for line in block.splitlines()]
    assert ["pip", "install", "-q", "-e", ".[test]"] in commands  # the tests' extra
    monkeypatch.chdir(project)
    for command in (c for c in commands if c[:1] == ["vitgrade"]):
        expected = 1 if "student_template/vit_exercises.py" in command else 0  # points lost
        assert main(command[1:]) == expected, command
    exercises = project / "exercises"
    assert {p.name: compiled.state(p) for p in spec_files(exercises)} == {
        p.name: "fresh" for p in spec_files(exercises)}
    assert main(["render", "--check"]) == 0


def _section(number: int) -> str:
    """Section `number` of docs/authoring.md, its heading to the next one."""
    text = AUTHORING.read_text(encoding="utf-8")
    start = text.index(f"\n## {number}. ")
    return text[start:text.index("\n## ", start + 1)]


def _statements(*sources: str) -> list[str]:
    """The top-level statements of the sources, in order: no docstring, no `check` line."""
    import ast

    found = []
    for source in sources:
        tree = ast.parse(source)
        found += [ast.get_source_segment(source, s) for s in tree.body[bool(
            ast.get_docstring(tree)):]]
    return [s for s in found if not s.startswith(("check(", "from grader import check"))]


def _files(section: str) -> dict[str, str]:
    """path -> text of each block the section puts in a file (`<!-- file: PATH -->` above it)."""
    return dict(re.findall(r"^<!-- file: (\S+)[^\n]*-->\n```\w*\n(.*?)^```", section, re.S | re.M))


def test_a_function_added_as_the_walkthrough_says_gets_full_marks(tmp_path, capsys,
                                                                  monkeypatch):
    """docs/authoring.md, section 4, on a copy of the project: `vitgrade new --function`, each
    file as the page shows it where it says, then every command of its "Check it": the
    catalogue validates, compiles fresh, the solution gets full marks (the new exercise's
    included), the template none, and the sheet and the templates are current."""
    import json
    import shlex
    import shutil

    import nbformat

    from grader.checks import compiled
    from grader.spec import spec_files

    section = _section(4)
    files = _files(section)
    project = tmp_path / "project"
    for folder in ("exercises", "solutions", "student_template", "docs"):
        shutil.copytree(ROOT / folder, project / folder)
    new = shlex.split(re.search(r"```bash\n(vitgrade new .*)\n```", section).group(1))
    spec = next(project / name for name in files if name.endswith(".yaml"))
    for done in (spec, *compiled.paths(spec),
                 *(project / n for n in files if n.startswith("exercises/reference/"))):
        done.unlink(missing_ok=True)  # the walk-through followed here already
    monkeypatch.chdir(project)
    assert main(new[1:]) == 0, capsys.readouterr()
    for name, text in files.items():
        if name.startswith(("exercises/", "tests/")):
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text, encoding="utf-8")
    code = files["solutions/vit_exercises.py"]
    defined = code[:code.index("(")]  # "def sincos_positions"
    module = project / "solutions" / "vit_exercises.py"
    if defined not in module.read_text():  # "just above the `# --- Concepts` line"
        module.write_text(module.read_text().replace("# --- Concepts",
                                                     f"{code}\n\n# --- Concepts", 1))
    path = project / "solutions" / "vit_exercises.ipynb"
    notebook = nbformat.read(path, as_version=4)
    if not any(c.source.startswith(defined) for c in notebook.cells):  # "at the same place"
        at = next(i for i, c in enumerate(notebook.cells) if c.source.startswith("## 5. Concepts"))
        notebook.cells.insert(at, nbformat.v4.new_code_cell(code.rstrip("\n")))
        nbformat.write(notebook, path)
    cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    assert _statements(*cells) == _statements(module.read_text())  # the module's order

    block = re.search(r"### Check it\n\n```bash\n(.*?)```", section, re.S).group(1)
    commands = [shlex.split(line.split("#")[0]) for line in block.splitlines()]
    assert ["pip", "install", "-q", "-e", ".[test]"] in commands  # the tests' extra
    assert "tests/test_course_functions.py" in block
    for command in (c for c in commands if c[:1] == ["vitgrade"]):
        expected = 1 if "student_template/vit_exercises.py" in command else 0  # points lost
        assert main(command[1:]) == expected, (command, capsys.readouterr())
    exercises = project / "exercises"
    assert {p.name: compiled.state(p) for p in spec_files(exercises)} == {
        p.name: "fresh" for p in spec_files(exercises)}
    assert main(["render", "--check"]) == 0
    assert main(["assign", "solutions", "student_template", "--check"]) == 0
    capsys.readouterr()
    for submission in (module, path):
        out = tmp_path / f"{submission.suffix[1:]}.json"
        assert main(["grade", str(submission), "--json", str(out)]) == 0, capsys.readouterr()
        tests = json.loads(out.read_text())["tests"]
        assert any(spec.stem in t["name"] and t["score"] == t["max_score"] > 0 for t in tests)
    name = defined.split()[1]
    assert f"`{name}(" in (project / "docs" / "student-api.md").read_text()
    template = (project / "student_template" / "vit_exercises.py").read_text()
    assert "raise NotImplementedError()" in template[template.index(f"{defined}("):]
