"""`vitgrade dist OUT/`: everything a student needs, and nothing they may not see.

    OUT/README.md          how to install and grade (below)
    OUT/docs/student-api.md  the names, signatures and shapes a submission defines
    OUT/vit_exercises.py   the template (every file of student_template/)
    OUT/exercises/         the visible checks of each spec, and the data files they name
    OUT/exercises/compiled/  what grading them needs from the reference, as data (compiled.py);
                           the course's own reference (exercises/reference/) is not copied
    OUT/grader/            the grader package without grader/reference/ (the reference ViT is the
                           lab's solution);  OUT/pyproject.toml: `pip install OUT` installs it

No solutions, no hidden checks: hidden cases, their generators and seeds, and so their expected
values stay with the instructor. The visible cases' expected values, misconceptions' outputs and
the sealed multiple-choice keys are compiled here, by the instructor's grader, and
grader/REFERENCE_VERSION says which reference they came from. A template that still holds a
solution marker stops the build.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from grader.authoring.render import with_course_functions
from grader.checks import compiled
from grader.checks.compile_specs import compile_spec, default_solution
from grader.checks.course import FOLDER

from .project_copy import SKIPPED, copy_course_file, copy_spec_data, write_project
from .visible_specs import visible_specs

# nbgrader's `### BEGIN SOLUTION`
SOLUTION_MARKER = re.compile(r"^\s*#+\s*(BEGIN|END) SOLUTION", re.MULTILINE)
RESERVED = {"README.md", "pyproject.toml", "grader", "exercises", "docs"}
API_DOC = Path("docs", "student-api.md")  # in the project, and at the same place in the bundle

README = """# Vision Transformers (lecture 4.2): exercises and grader

This folder holds the exercises of the Vision Transformers week and the grader that checks them
on your own machine, the same grader your submission is graded with.

## Start

```bash
python3 -m venv .venv && .venv/bin/pip install .     # Python 3.11 or newer
.venv/bin/vitgrade grade vit_exercises.py            # the score table and feedback
```

Write your answers in `vit_exercises.py` (or in a notebook, `vitgrade grade my_work.ipynb`)
and grade as often as you like: each run takes a second or two. `vitgrade grade --help` lists
the options. `docs/student-api.md` lists every name your file must define, with its arguments,
the shapes it takes and returns, and the conventions (patch order, weights from the right).

## What you see, and what you do not

`exercises/` holds the visible checks of every exercise: the cases you are graded on, with
their hints. Your final grade also counts **hidden checks**: more cases of the same kind (other
sizes, random images), which are not in this folder. Code that is right for the reasons the
lecture gives passes them; code tuned to the visible cases does not. When a visible check fails,
the feedback shows the call, what was expected and what your code returned.

Files you may open to learn from: `exercises/*.yaml` (what is checked) and `grader/` (how).
The grader here has no reference solution: the expected values of the visible cases were
computed by your instructor and are stored in `exercises/compiled/`. If you change a spec, the
grader cannot grade that exercise any more (it says so); take a fresh copy of the folder.

The multiple-choice questions are graded here too, at once: the right option and each option's
feedback are stored sealed (hashed, and encrypted under a key made from the option), so you see
an option's feedback when you answer with it, as you would by trying it, and nothing else.
"""


class BundleError(RuntimeError):
    """The bundle cannot be written safely (the message says why)."""


def write_student_bundle(out: Path, exercises: Path, template: Path | None = None,
                         student_id: str | None = None) -> list[str]:
    """Write the bundle to `out` (absent or empty); returns notes on what was left out.
    `student_id`: one student's bundle, their own variants' visible cases (needs the course
    secret), else the shared one, which holds no variant's numbers."""
    out, exercises = Path(out), Path(exercises)
    student = None
    if student_id:
        from grader.checks.variants import SECRET_FILE, course_secret

        secret = course_secret(exercises)
        if secret is None:
            raise BundleError(f"no course secret ({exercises / SECRET_FILE}): `vitgrade "
                              "compile` makes one; a student's bundle needs it")
        student = (secret, student_id)
    template = template or exercises.resolve().parent / "student_template"
    if not template.is_dir():
        raise BundleError(f"no student template folder {template} (give --template DIR)")
    if out.exists() and any(out.iterdir()):
        raise BundleError(f"{out} is not empty: give an empty or new folder, so nothing stale "
                          "ends up in the bundle")
    specs = visible_specs(exercises, seal_answers=True, student=student)
    if not specs.texts:
        raise BundleError(f"no spec in {exercises} has a visible check")
    starters = [p for p in sorted(template.iterdir())
                if not p.name.startswith(".") and p.name != "__pycache__"]
    clashes = sorted(p.name for p in starters if p.name in RESERVED)
    if clashes:
        raise BundleError(f"template files clash with the bundle's own: {', '.join(clashes)}")
    for file in (f for p in starters for f in ([p] if p.is_file() else p.rglob("*"))):
        if file.is_file() and SOLUTION_MARKER.search(file.read_bytes().decode("utf-8", "replace")):
            raise BundleError(f"{file} holds a solution marker (### BEGIN SOLUTION): "
                              "it is not a student template")
    # docs/student-api.md of the project the template belongs to, else of the grader's own
    api_doc = next((root / API_DOC for root in (template.resolve().parent,
                                                 Path(__file__).resolve().parents[2])
                    if (root / API_DOC).is_file()), None)
    if api_doc is None:
        raise BundleError(f"no {API_DOC} beside {template}: the bundle's README points students "
                          "to it")
    if not compiled.has_reference():
        raise BundleError("this grader has no reference to compile the expected values with")
    version = compiled.reference_version(exercises)
    specs_dir = write_project(out, readme=README, leave_out=("reference",))
    (out / "grader" / compiled.VERSION_FILE).write_text(version + "\n", encoding="utf-8")
    for name, text in specs.texts.items():
        (specs_dir / name).write_text(text, encoding="utf-8")
    copy_spec_data(exercises, specs_dir, {p for p in specs.data if Path(p).parts[0] != FOLDER})
    copy_course_file(exercises, specs_dir)
    solution = default_solution(exercises)  # its calls record the stand-ins' answers
    copy_spec_data(exercises, specs_dir, {FOLDER})  # the course's reference, while compiling
    try:
        for name in specs.texts:  # after the data files: a checkpoint input reads them
            compile_spec(specs_dir / name, specs.answers.get(name), solution)
    finally:
        shutil.rmtree(specs_dir / FOLDER, ignore_errors=True)
    (out / API_DOC.parent).mkdir(exist_ok=True)
    (out / API_DOC).write_text(with_course_functions(api_doc.read_text(encoding="utf-8"),
                                                     exercises), encoding="utf-8")
    for path in starters:
        if path.is_dir():
            shutil.copytree(path, out / path.name, ignore=SKIPPED)
        else:
            shutil.copy2(path, out / path.name)
    return specs.notes

