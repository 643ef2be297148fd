"""One source for solutions and templates: `vitgrade assign`, and the solution notebook against
the module."""
from __future__ import annotations

import ast
import json

import nbformat
import pytest

from grader.authoring.assign import (
    MarkerError,
    assign,
    defined_names,
    drift,
    student_lines,
    student_notebook,
)
from grader.cli import main

from conftest import ROOT

SOLUTIONS = ROOT / "solutions"
TEMPLATE = ROOT / "student_template"


def solution_notebook(*sources: str, outputs: bool = False) -> str:
    cells = [nbformat.v4.new_markdown_cell("# Lab 4\n### BEGIN SOLUTION (markdown is left alone)",
                                           id="intro")]
    for number, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source, id=f"code-{number}")
        if outputs:
            cell.execution_count = number + 1
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="196\n")]
        cells.append(cell)
    return nbformat.writes(nbformat.v4.new_notebook(cells=cells))


def code_sources(text: str) -> list[str]:
    return [cell.source for cell in nbformat.reads(text, as_version=4).cells
            if cell.cell_type == "code"]


# -- the committed template -----------------------------------------------------------------------


def test_the_committed_template_is_what_assign_writes(tmp_path):
    versions = assign(SOLUTIONS, tmp_path)
    assert sorted(v.target.name for v in versions) == sorted(
        p.name for p in TEMPLATE.iterdir() if p.suffix in (".py", ".ipynb"))
    for version in versions:
        committed = (TEMPLATE / version.target.name).read_text(encoding="utf-8")
        assert committed == version.text, (f"{TEMPLATE / version.target.name} is stale: "
                                           f"run `vitgrade assign solutions/ student_template/`")


def test_assign_command_writes_the_student_versions_and_check_finds_them_current(tmp_path, capsys):
    assert main(["assign", str(SOLUTIONS), str(tmp_path)]) == 0
    assert "solution region(s) replaced" in capsys.readouterr().out
    assert main(["assign", str(SOLUTIONS), str(tmp_path), "--check"]) == 0
    (tmp_path / "vit_exercises.py").write_text("# edited by hand\n")
    assert main(["assign", str(SOLUTIONS), str(tmp_path), "--check"]) == 1
    assert "vit_exercises.py: differs" in capsys.readouterr().out


def test_the_solution_notebook_holds_the_modules_code_cell_for_cell():
    """Drift is impossible: every code cell is a verbatim slice of the module, and together they
    hold all of its statements, in order (the notebook adds only its `check` lines)."""
    module = (SOLUTIONS / "vit_exercises.py").read_text(encoding="utf-8")
    cells = code_sources((SOLUTIONS / "vit_exercises.ipynb").read_text(encoding="utf-8"))
    checking = [c for c in cells
                if all(line.startswith(("check(", "from grader import check"))
                       for line in c.splitlines())]
    code = [c for c in cells if c not in checking]
    for cell in code:
        assert cell in module, \
            f"this notebook cell differs from solutions/vit_exercises.py:\n{cell}"

    def statements(source: str) -> list[str]:
        tree = ast.parse(source)
        body = tree.body[1:] if ast.get_docstring(tree) else tree.body
        return [ast.get_source_segment(source, s) for s in body]

    assert [s for cell in code for s in statements(cell)] == statements(module)


# -- the rules ------------------------------------------------------------------------------------


def test_an_indented_solution_becomes_the_stub_at_its_indentation():
    lines, regions, _ = student_lines([
        "def patch_dim(P, C=3):\n", "    ### BEGIN SOLUTION\n", "    return P * P * C\n",
        "    ### END SOLUTION\n",
    ], str)
    assert lines == ["def patch_dim(P, C=3):\n", "    # YOUR CODE HERE\n",
                     "    raise NotImplementedError()\n"]
    assert regions == 1


def test_a_top_level_solution_becomes_a_comment_so_the_rest_still_runs():
    lines, _, _ = student_lines(["ANSWERS = {}\n", "### BEGIN SOLUTION\n",
                                 "ANSWERS['medical'] = 'pretrained'\n",
                                 "### END SOLUTION\n", "print(ANSWERS)\n"], str)
    assert lines == ["ANSWERS = {}\n", "# YOUR CODE HERE\n", "print(ANSWERS)\n"]


def test_notebook_outputs_and_counts_are_cleared_and_instructor_only_cells_dropped():
    text, regions, dropped = student_notebook(solution_notebook(
        "def num_patches(H, W, P):\n    ### BEGIN SOLUTION\n    return (H // P) * (W // P)\n"
        "    ### END SOLUTION",
        "### BEGIN HIDDEN TESTS\nassert num_patches(224, 224, 16) == 196\n### END HIDDEN TESTS",
        "x = num_patches(4, 4, 2)\n### BEGIN HIDDEN TESTS\nassert x == 4\n### END HIDDEN TESTS\n"
        "print(x)",
        outputs=True,
    ), "lab.ipynb")
    notebook = nbformat.reads(text, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.source for cell in code] == [
        "def num_patches(H, W, P):\n    # YOUR CODE HERE\n    raise NotImplementedError()",
        "x = num_patches(4, 4, 2)\nprint(x)",
    ]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)
    assert (regions, dropped) == (1, 1)
    assert notebook.cells[0].source.endswith("### BEGIN SOLUTION (markdown is left alone)")


def test_a_notebook_without_cell_ids_gets_the_same_template_every_time():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    del notebook.cells[0]["id"]
    text = json.dumps(notebook)
    assert student_notebook(text, "a.ipynb")[0] == student_notebook(text, "a.ipynb")[0]


@pytest.mark.parametrize(("lines", "message"), [
    (["x = 1\n", "### END SOLUTION\n"],
     "lab.py:2: `### END SOLUTION` without a `### BEGIN SOLUTION` before it"),
    (["### BEGIN SOLUTION\n", "x = 1\n"], "lab.py:1: `### BEGIN SOLUTION` is never closed"),
    (["### BEGIN SOLUTION\n", "    ### BEGIN SOLUTION\n", "### END SOLUTION\n"],
     "lab.py:2: `### BEGIN SOLUTION` inside the SOLUTION region opened at line 1"),
    (["### BEGIN HIDDEN TESTS\n", "### END SOLUTION\n"],
     "lab.py:2: `### END SOLUTION` without a `### BEGIN SOLUTION` before it; "
     "the HIDDEN TESTS region opened at line 1 is still open"),
])
def test_unpaired_markers_in_a_module_are_refused_with_file_and_line(tmp_path, lines, message):
    (tmp_path / "lab.py").write_text("".join(lines))
    with pytest.raises(MarkerError) as refused:
        assign(tmp_path / "lab.py", tmp_path / "out")
    assert str(refused.value).replace(str(tmp_path) + "/", "").startswith(message)


def test_unpaired_markers_in_a_notebook_name_file_cell_and_line(tmp_path, capsys):
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "lab.ipynb").write_text(solution_notebook(
        "import numpy as np",
        "",
        "def patchify(image, P):\n    ### BEGIN SOLUTION\n    return image.reshape(-1, P * P)\n",
    ))
    assert main(["assign", str(tmp_path / "solutions"), str(tmp_path / "template")]) == 1
    error = capsys.readouterr().err
    assert ("lab.ipynb, cell 2 (`def patchify(image, P):`), line 2: "
            "`### BEGIN SOLUTION` is never closed") in error
    assert not (tmp_path / "template").exists()  # nothing written


# -- a module and its notebook define the same names ---------------------------------------------


def add_cell(notebook, source: str) -> None:
    """Append a code cell to the notebook file at `notebook`."""
    data = nbformat.read(notebook, as_version=4)
    data.cells.append(nbformat.v4.new_code_cell(source, id=f"added-{len(data.cells)}"))
    nbformat.write(data, notebook)


@pytest.fixture
def folders(tmp_path):
    """Copies of solutions/ and student_template/: (solutions, template)."""
    import shutil

    shutil.copytree(SOLUTIONS, tmp_path / "solutions")
    shutil.copytree(TEMPLATE, tmp_path / "template")
    return tmp_path / "solutions", tmp_path / "template"


@pytest.mark.parametrize("folder", [SOLUTIONS, TEMPLATE], ids=["solutions", "student_template"])
def test_the_committed_module_and_notebook_define_the_same_functions_and_answers(folder):
    assert drift(folder) == []
    names = defined_names(folder / "vit_exercises.py")
    assert {"function num_patches", "function vit_forward", 'ANSWERS["medical"]'} <= names


def test_a_function_only_the_module_defines_fails_the_check_naming_the_notebook(folders, capsys):
    solutions, template = folders
    module = solutions / "vit_exercises.py"
    module.write_text(module.read_text() + "\n\ndef num_pixels(H, W):\n    return H * W\n")
    assert main(["assign", str(solutions), str(template), "--check"]) == 1
    error = capsys.readouterr().err
    assert f"{solutions / 'vit_exercises.ipynb'}: lacks function num_pixels" in error
    assert main(["assign", str(solutions), str(template)]) == 1  # nothing written from drift
    assert "num_pixels" not in (template / "vit_exercises.py").read_text()


def test_an_answer_only_the_notebook_gives_fails_the_check_naming_the_module(folders, capsys):
    solutions, template = folders
    add_cell(solutions / "vit_exercises.ipynb", 'ANSWERS["pooling"] = "mean"')
    assert main(["assign", str(solutions), str(template), "--check"]) == 1
    assert f'{solutions / "vit_exercises.py"}: lacks ANSWERS["pooling"]' in capsys.readouterr().err


def test_a_template_notebook_behind_its_module_fails_the_check(folders, capsys):
    solutions, template = folders
    module = template / "vit_exercises.py"
    text = module.read_text().replace("ANSWERS = {", 'ANSWERS = {\n    "pooling": None,')
    module.write_text(text)
    assert main(["assign", str(solutions), str(template), "--check"]) == 1
    error = capsys.readouterr().err
    assert f'{template / "vit_exercises.ipynb"}: lacks ANSWERS["pooling"]' in error


def test_magics_and_shell_lines_of_a_notebook_are_not_compared(tmp_path):
    (tmp_path / "lab.py").write_text("def f():\n    return 1\n\n\nANSWERS = dict(medical=None)\n")
    (tmp_path / "lab.ipynb").write_text(solution_notebook(
        "%matplotlib inline\n!pip install numpy\ndef f():\n    return 1",
        "%%time\nx = 1 +* 2",
        'ANSWERS = {"medical": None}',
    ))
    assert drift(tmp_path) == []
