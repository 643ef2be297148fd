"""The class report names misconceptions as a person would (a spec's `title:`, else the hint's
first clause) and places them in the student-API function their check calls, counting each
student once however many checks caught the same mistake."""
from __future__ import annotations

import shutil
import textwrap

import pytest
from buggy_submissions import build_submission

from grader import load_spec, load_specs
from grader.checks.describe import TITLE_CHARS, short_title
from grader.checks.kinds import AnswerCheck, CallCheck
from grader.checks.kinds.answer import SLIP_TITLES
from grader.driver import Driver
from grader.report.class_summary import summarise
from grader.report.labels import MISTAKE_TITLES, Labels, labels_from_specs
from grader.settings import GraderSettings
from grader.spec import SpecError

from conftest import EXERCISES, SOLUTION, SUBMISSIONS

OVERLAPPING = ("return (H // P) * (W // P)", "return (H - P + 1) * (W - P + 1)")


def test_a_hint_gives_its_first_clause_cut_at_a_word_boundary():
    assert short_title("Your mask is upside down: token i sees tokens i..T-1.") == \
        "Your mask is upside down"
    long = ("You counted overlapping stride-1 windows, as a CNN slides its kernel over the "
            "image. ViT patches do not overlap.")
    title = short_title(long)
    assert len(title) <= TITLE_CHARS + 1 and title.endswith("\u2026")
    assert long.startswith(title[:-1]) and long[len(title) - 1] == " "  # a whole word
    assert short_title("`np.max` without keepdims") == "np.max without keepdims"


def test_a_spec_title_is_loaded_validated_and_optional(tmp_path):
    spec = textwrap.dedent("""\
        id: counting
        title: Count patches
        lecture: Practice 1
        uses: [num_patches]
        checks:
          - name: sizes
            call: num_patches
            misconceptions:
              - like: overlapping_windows_count
                title: "{title}"
                hint: You counted overlapping windows.
              - like: floor_division_count
                hint: "Floor division drops pixels: raise ValueError."
            cases:
              - args: [224, 224, 16]
        """)
    (tmp_path / "counting.yaml").write_text(spec.format(title="overlapping windows"))
    exercise = load_spec(tmp_path / "counting.yaml")
    first, second = exercise.checks[0].misconceptions
    assert (first.title, second.title) == ("overlapping windows", None)
    labels = labels_from_specs([exercise])
    assert labels.title("counting", "overlapping_windows_count", "x") == "overlapping windows"
    assert labels.title("counting", "floor_division_count", "x") == "Floor division drops pixels"
    assert labels.function("counting", "sizes") == "num_patches"
    (tmp_path / "counting.yaml").write_text(spec.format(title="x" * 81))
    with pytest.raises(SpecError, match="title"):
        load_spec(tmp_path / "counting.yaml")


def test_every_misconception_of_the_catalogue_has_a_title():
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    untitled = [(e.id, m.like) for e in exercises for c in e.checks if isinstance(c, CallCheck)
                for m in c.misconceptions if not m.title]
    assert untitled == []
    answers = {name: title for e in exercises for c in e.checks if isinstance(c, AnswerCheck)
               for name, title in c.misconception_titles().items()}
    assert answers and all(title == f'answered "{name.split(":")[1]}"'  # never its feedback's rule
                           for name, title in answers.items() if name not in SLIP_TITLES)
    assert {name: answers[name] for name in SLIP_TITLES} == SLIP_TITLES  # how it was written


def test_a_mistake_caught_by_several_checks_counts_once_per_student(tmp_path):
    specs = tmp_path / "exercises"
    specs.mkdir()
    shutil.copy(EXERCISES / "patch-count.yaml", specs)
    wrong = SOLUTION.read_text().replace(*OVERLAPPING)
    for name in ("ann", "ben"):
        (tmp_path / f"{name}.py").write_text(wrong)
    grader = Driver(GraderSettings(None, specs))
    try:
        rows = [(name, grader.grade(tmp_path / f"{name}.py").report, None)
                for name in ("ann", "ben")]
        rows.append(("cal", grader.grade(SOLUTION).report, None))
    finally:
        grader.close()
    caught = [c.name for e in rows[0][1].exercises for c in e.checks
              if c.misconception == "overlapping_windows_count"]
    assert len(caught) >= 2  # the same mistake, in several checks
    exercises, _ = load_specs(specs)
    summary = summarise(rows, labels_from_specs(exercises))
    top = summary.misconceptions[0]
    assert (top.title, top.functions, len(top.students)) == (
        "overlapping stride-1 windows", ["num_patches"], 2)
    bare = summarise(rows, Labels()).misconceptions[0]  # no specs: the hint's first words
    assert bare.title == short_title(bare.hint) and bare.title != bare.name


def test_one_causal_mask_student_is_one_row_in_self_attention_named_by_the_mistake(tmp_path):
    """The causal mask fails a self_attention call check and two property checks (the first
    token sees the last one; attention only reorders): one misconception, one row."""
    snippet = SUBMISSIONS / "buggy" / "attention_causal.py"
    grader = Driver(GraderSettings(None, EXERCISES))
    try:
        rows = [("ann", grader.grade(build_submission(snippet, tmp_path)).report, None),
                ("cal", grader.grade(SOLUTION).report, None)]
    finally:
        grader.close()
    caught = {(e.id, c.misconception) for e in rows[0][1].exercises for c in e.checks
              if c.misconception}
    assert {exercise for exercise, _ in caught} >= {"multi-head-attention", "no-causal-mask",
                                                    "why-positions"}  # three kinds of check
    exercises, _ = load_specs(EXERCISES)
    labels = labels_from_specs(exercises)
    found = summarise(rows, labels).misconceptions
    assert [(m.title, m.functions, sorted(m.students)) for m in found] == [
        ("causal mask by default", ["self_attention"], ["ann"])]


def test_a_property_or_generalisation_finding_is_titled_by_the_mistake_not_the_rule():
    exercises, _ = load_specs(EXERCISES)
    labels = labels_from_specs(exercises)
    check = next(c.name for e in exercises for c in e.checks
                 if getattr(c, "property_name", None) == "attention_permutation_equivariant")
    assert labels.function("why-positions", check) == "self_attention"
    for name in ("gpt_causal_mask", "attention_not_equivariant", "bag_of_tiles",
                 "only_square_images"):
        title = labels.title("why-positions", name, "Attention on its own is equivariant.")
        assert title == MISTAKE_TITLES[name] and not title.startswith("Attention on its own")


def test_a_combination_counts_as_each_of_its_mistakes(tmp_path):
    snippet = SUBMISSIONS / "buggy" / "layer_norm_three_bugs.py"
    specs = tmp_path / "exercises"
    specs.mkdir()
    for name in ("layer-norm.yaml",):
        shutil.copy(EXERCISES / name, specs)
    shutil.copytree(EXERCISES / "compiled", specs / "compiled")
    grader = Driver(GraderSettings(None, specs))
    try:
        rows = [("ann", grader.grade(build_submission(snippet, tmp_path)).report, None)]
    finally:
        grader.close()
    exercises, _ = load_specs(specs)
    found = summarise(rows, labels_from_specs(exercises)).misconceptions
    assert {m.name for m in found} == {"layer_norm_unbiased", "layer_norm_divides_by_variance",
                                       "layer_norm_affine_swapped"}
    assert all(m.functions == ["layer_norm"] and m.students == {"ann"} for m in found)
