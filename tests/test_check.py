"""`check()`: a student's self-check from a Jupyter kernel or a Python session, on the visible
cases."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

import nbformat
import pytest
from buggy_submissions import submission_text

from grader import load_spec, load_specs
from grader.notebook_check import (
    VISIBLE_ONLY_NOTE,
    check,
    grade_namespace,
    render_html,
    render_text,
)
from grader.settings import SettingsError

from conftest import EXERCISES, ROOT, SOLUTION, SUBMISSIONS

# the classic mistake
OVERLAPPING = "def num_patches(H, W, P):\n    return (H - P + 1) * (W - P + 1)\n"


def hidden_names(spec: str) -> list[str]:
    return [c.name for c in load_spec(EXERCISES / spec).checks if c.hidden]


def namespace_from(tmp_path, source: str) -> dict:
    """What a session that ran `source` holds (run from a file, so the functions have source)."""
    path = tmp_path / "session.py"
    path.write_text(textwrap.dedent(source))
    namespace = {"__name__": "__main__", "__file__": str(path)}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def feedback_block(text: str, first: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")),
               len(lines))
    return lines[start:end]


def test_check_in_a_jupyter_kernel_shows_a_table_feedback_and_the_students_cells():
    pytest.importorskip("nbclient")
    from nbclient import NotebookClient

    solution = nbformat.read(ROOT / "solutions" / "vit_exercises.ipynb", as_version=4)
    patchify = next(c.source for c in solution.cells
                    if c.cell_type == "code" and "def patchify" in c.source)
    cells = ["import numpy as np", patchify, OVERLAPPING,
             "def patch_dim(P, C=3):\n    area = P * P\n    return area * C / 0",
             "from grader import check", "check('patchify')", "check('num_patches')",
             "check('patch_dim')", "check('nope')"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(notebook, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    shown = {}
    for cell in notebook.cells[5:]:
        (output,) = [o for o in cell.outputs if o.output_type in ("display_data", "stream")]
        shown[cell.source] = (output.data if output.output_type == "display_data"
                              else {"text/plain": output.text})

    patchify_html = shown["check('patchify')"]["text/html"]
    assert ("<table>" in patchify_html and "patchify" in patchify_html
            and "&#10003;" in patchify_html)
    text = shown["check('patchify')"]["text/plain"].splitlines()
    assert text[-2].endswith("(100%)") and text[-1] == VISIBLE_ONLY_NOTE
    assert "(100%)" in patchify_html and VISIBLE_ONLY_NOTE in patchify_html
    counting = shown["check('num_patches')"]["text/plain"]
    assert ("expected: 4 (int)" in counting
            and "hint: You counted overlapping stride-1 windows" in counting)
    assert not any(name in counting for name in hidden_names("patch-count.yaml"))
    # the student's cell
    assert 'File "In[4]", line 3, in patch_dim' in shown["check('patch_dim')"]["text/plain"]
    assert "no exercise has that id" in shown["check('nope')"]["text/plain"]


def test_check_in_a_python_session_prints_what_pytest_prints(tmp_path, grade_with):
    script = tmp_path / "work.py"
    script.write_text(f"{OVERLAPPING}\nfrom grader import check\ncheck('num_patches')\n")
    session = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
    assert session.returncode == 0, session.stderr
    assert "<table>" not in session.stdout and session.stdout.splitlines()[-2].startswith("total")
    pytest_run = grade_with(script, "--feedback", "--visible-only")
    first = "patch-count: Count the patches"
    assert feedback_block(session.stdout, first) == feedback_block(pytest_run.stdout.str(), first)


def test_check_shows_the_exercises_of_the_function_asked_each_once_and_no_weights(tmp_path):
    """check(function): the exercises with a check of it, not those built on it, each once; a
    failure names a weight dictionary by its keys; a missing name is "not defined yet"; one
    exercise graded around a broken helper "depends on it"."""
    namespace = namespace_from(tmp_path, submission_text(SUBMISSIONS / "buggy" /
                                                         "attention_no_scale.py"))
    del namespace["ANSWERS"]
    exercises = load_specs(EXERCISES)[0]
    for name in ("softmax", "num_tokens", "self_attention", "vit_forward"):
        report = grade_namespace(namespace, name)
        ids = [e.id for e in report.exercises]
        assert len(ids) == len(set(ids)) and set(ids) == {
            e.id for e in exercises if any(c.subject == name for c in e.checks)}, name
        assert "vit-checkpoint" not in ids or name == "vit_forward"
        text, html = render_text(report), render_html(report)
        assert "in your submission" not in text and "Wq: [[" not in text + html
        if name == "self_attention":
            assert "p=<dict: Wq, bq, Wk, bk, Wv, bv, Wo, bo>" in text
            assert "`ANSWERS` is not defined yet" in text and "`ANSWERS` is not defined yet" in html
        if name == "vit_forward":  # graded around self_attention; its checkpoint, on it
            assert "first: 1 exercise depends on it (vit-forward); it was graded" in text
            assert "1 of 1 check failed" in text and "1 of 1 check failed" in html


def test_check_stops_a_looping_function_at_the_call_timeout_vitgrade_grade_uses(tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(EXERCISES / "patch-count.yaml", specs)
    namespace = namespace_from(tmp_path, "def num_patches(H, W, P):\n    while True:\n"
                                         "        pass\n")
    report = grade_namespace(namespace, exercises=specs, call_timeout=0.5)
    said = {c.name: c.message for e in report.exercises for c in e.checks}
    out = tmp_path / "results.json"
    subprocess.run([sys.executable, "-m", "grader.cli", "grade", namespace["__file__"], "-q",
                    "--visible-only", "--exercises", specs, "--call-timeout", "0.5", "--json", out],
                   cwd=tmp_path, capture_output=True, timeout=120)
    (graded,) = [t["output"] for t in json.loads(out.read_text())["tests"]]  # one exercise
    graded = "\n".join(line.strip() for line in graded.splitlines())  # indented there
    assert len(said) == 3 and all(name in graded for name in said)  # its three visible checks
    for message in said.values():  # the default is 10 s
        assert "`num_patches` did not return within 0.5 s" in message
        assert "\n".join(line.strip() for line in message.splitlines()) in graded
    with pytest.raises(SettingsError, match="--call-timeout"):
        grade_namespace(namespace, exercises=specs, call_timeout=-1)


def test_check_grades_visible_checks_only(tmp_path):
    report = grade_namespace(namespace_from(tmp_path, OVERLAPPING), "patch-count")
    (exercise,) = report.exercises
    visible = [c for c in load_spec(EXERCISES / "patch-count.yaml").checks if not c.hidden]
    assert [c.name for c in exercise.checks] == [c.name for c in visible]
    assert exercise.max_score == sum(c.points for c in visible)


def test_check_carries_helpers_constants_arrays_and_imports_the_functions_use(tmp_path):
    namespace = namespace_from(tmp_path, """
        import functools
        import numpy
        import numpy as xp
        from math import prod

        ORDER = (0, 2, 1, 3, 4)
        OFFSET = numpy.zeros(1)

        def _grid(image, P):
            H, W, C = image.shape
            if H % P or W % P:
                raise ValueError("patches do not tile")
            return image.reshape(H // P, P, W // P, P, C).transpose(ORDER)

        def cut(image, P):
            image = xp.asarray(image)
            if image.ndim == 2:
                image = image[:, :, None]
            if image.ndim != 3:
                raise ValueError("not an image")
            return _grid(image, P).reshape(-1, area(P, image.shape[2])) + OFFSET[0]

        @functools.cache
        def area(P, C):
            return prod((P, P, C))

        patchify = cut
        """)
    report = grade_namespace(namespace, "patchify")
    assert report.load_problems == () and report.fatal is None
    assert report.score == report.max_score > 0


def test_what_cannot_be_carried_is_named_in_the_report(tmp_path):
    namespace = namespace_from(tmp_path, """
        import threading

        LOCK = threading.Lock()

        def make():
            def patch_dim(P, C=3):
                return P * P * C
            return patch_dim

        patch_dim = make()

        def num_patches(H, W, P):
            with LOCK:
                return (H // P) * (W // P)
        """)
    report = grade_namespace(namespace, "patch_dim")
    assert report.load_problems[0].startswith("`patch_dim` was not carried into the check: "
                                              "it is defined inside another function")
    report = grade_namespace(namespace, "num_patches")
    assert report.load_problems[0].startswith("`LOCK` was not carried into the check: it is a lock")


def test_check_with_an_unknown_name_lists_the_exercises(capsys):
    check("no-such-exercise")
    out = capsys.readouterr().out
    assert "check('no-such-exercise'): no exercise has that id or grades that function" in out
    assert "patch-count" in out


def test_check_with_a_misspelt_name_suggests_the_near_one(capsys):
    check("patchfy")
    assert capsys.readouterr().out.strip() == (
        "check('patchfy'): no exercise or function 'patchfy'; did you mean 'patchify'?")
    check("layer-nrom")
    assert "did you mean 'layer-norm'?" in capsys.readouterr().out


def test_check_in_a_graded_module_does_nothing_in_the_worker(tmp_path, grade_with):
    """A submission that calls check() at its top level loads without a problem: in the worker,
    check() returns at once (it must not import the specs or the reference)."""
    script = tmp_path / "work.py"
    script.write_text(f"{OVERLAPPING}\nfrom grader import check\ncheck('num_patches')\n")
    output = grade_with(script, "--visible-only").stdout.str()
    assert "patch-count" in output
    assert "while loading" not in output and "cannot be imported" not in output, output


def test_a_warning_from_the_students_code_names_their_cell_not_the_graders_temporary_file(
        tmp_path):
    """What student code printed (a warning names its file and line) is read back to the
    student's own source, as tracebacks are: never the temporary module check() writes."""
    source = SOLUTION.read_text() + textwrap.dedent('''

        def softmax(x, axis=-1):
            import warnings
            warnings.warn("my softmax warns")  # the line the warning names
            e = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e / e.sum(axis=axis, keepdims=True) * 2
        ''')
    namespace = namespace_from(tmp_path, source)
    report = grade_namespace(namespace, "softmax")
    printed = [c.printed for e in report.exercises for c in e.checks if "my softmax" in c.printed]
    line = next(i for i, text in enumerate((tmp_path / "session.py").read_text().splitlines(), 1)
                if "the line the warning names" in text)
    assert printed and all(f"session.py:{line}: UserWarning" in p for p in printed), printed
    assert not [p for p in printed if "vitgrade-check-" in p or "your_code.py" in p]


def test_check_speaks_in_a_process_that_has_imported_the_worker_module(capsys):
    """Only a worker's process (serve.run) silences check(): a process that merely imported the
    worker's module, as one that graded before may have, still prints."""
    import grader.worker.serve  # noqa: F401

    check("patchfy")
    assert "did you mean 'patchify'?" in capsys.readouterr().out
