"""Spec loading: the shipped specs load, and each kind of mistake gets one file:line message."""
from __future__ import annotations

import textwrap

import pytest

from grader import load_spec, load_specs
from grader.checks.catalogue import spec_problems
from grader.spec import SpecError

from conftest import EXERCISES

GOOD = textwrap.dedent("""\
    id: tiny
    title: A tiny exercise
    lecture: Practice 1
    points: 4
    uses: [num_patches]
    checks:
      - name: lecture sizes
        call: num_patches
        compare: count
        cases:
          - args: [224, 224, 16]
            expect: 196
      - name: tiling
        points: 1
        call: num_patches
        cases:
          - args: [30, 32, 16]
            raises: ValueError
    """)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def error_of(path) -> SpecError:
    with pytest.raises(SpecError) as info:
        load_spec(path, display_path=path.name)
    return info.value


def test_every_shipped_spec_loads_and_validates():
    exercises, errors = load_specs(EXERCISES, build_inputs=True, every_problem=True)
    assert errors == []
    assert len(exercises) >= 5


def test_checks_without_points_share_the_exercise_total(tmp_path):
    exercise = load_spec(write(tmp_path, "tiny.yaml", GOOD))
    assert [c.points for c in exercise.checks] == [3.0, 1.0]
    assert exercise.points == 4.0


def test_misspelt_key_names_its_line_and_the_likely_key(tmp_path):
    text = GOOD.replace("    compare: count", "    comapre: count")
    error = error_of(write(tmp_path, "t.yaml", text))
    assert (error.line, str(error)) == (
        9, "t.yaml:9: unknown key 'comapre' in checks[0]; did you mean 'compare'?")


def test_wrong_type_names_the_key_and_the_value(tmp_path):
    error = error_of(write(tmp_path, "t.yaml", GOOD.replace("points: 4", "points: four")))
    assert str(error) == "t.yaml:4: points must be a number, not str 'four'"


def test_broken_yaml_names_the_line(tmp_path):
    text = GOOD.replace("uses: [num_patches]", "uses: [num_patches")
    error = error_of(write(tmp_path, "t.yaml", text))
    assert error.line is not None and "not valid YAML" in str(error)


def test_missing_required_key(tmp_path):
    error = error_of(write(tmp_path, "t.yaml", GOOD.replace("lecture: Practice 1\n", "")))
    assert "missing the key 'lecture'" in str(error) and error.line == 1


def test_duplicate_key_is_refused(tmp_path):
    text = GOOD.replace("points: 4\n", "points: 4\npoints: 5\n")
    error = error_of(write(tmp_path, "t.yaml", text))
    assert "appears twice" in str(error) and error.line == 5


def test_check_needs_one_kind(tmp_path):
    text = GOOD.replace("    call: num_patches\n    compare: count\n", "    compare: count\n")
    error = error_of(write(tmp_path, "t.yaml", text))
    assert "exactly one of 'call', 'answer' or 'property'" in str(error) and error.line == 7


def test_points_that_do_not_add_up(tmp_path):
    text = GOOD.replace("  - name: lecture sizes\n", "  - name: lecture sizes\n    points: 5\n")
    assert "add up to 6" in str(error_of(write(tmp_path, "t.yaml", text)))


def test_unknown_reference_function_is_reported_at_its_reference_line(tmp_path):
    text = GOOD.replace("    cases:\n      - args: [224, 224, 16]\n        expect: 196\n",
                        "    reference: num_patchez\n    cases:\n      - args: [224, 224, 16]\n")
    _, errors = spec_problems(write(tmp_path, "t.yaml", text), "t.yaml")
    assert [str(e) for e in errors] == [
        "t.yaml:10: unknown reference function 'num_patchez'; did you mean 'num_patches'?"]


def test_unknown_misconception_and_generator_are_reported(tmp_path):
    text = GOOD + (
        "  - name: generated\n"
        "    call: num_patches\n"
        "    generate: {generator: tiling_sizez}\n"
        "    misconceptions:\n"
        "      - {like: no_such_mistake, hint: x}\n"
    )
    messages = [e.message for e in spec_problems(write(tmp_path, "t.yaml", text))[1]]
    assert any("unknown generator 'tiling_sizez'" in m for m in messages)
    assert any("unknown misconception 'no_such_mistake'" in m for m in messages)


def test_one_bad_file_does_not_stop_the_others(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml",
          GOOD.replace("id: tiny", "id: other").replace("points: 4", "points: x"))
    exercises, errors = load_specs(tmp_path)
    assert [e.id for e in exercises] == ["tiny"]
    assert len(errors) == 1 and errors[0].path.endswith("b.yaml")


def test_duplicate_ids_across_files(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", GOOD)
    exercises, errors = load_specs(tmp_path)
    assert len(exercises) == 1 and "already used" in str(errors[0])


def test_exponent_floats_without_a_dot_are_numbers(tmp_path):
    """YAML 1.1 reads `1e-3` as a string; an instructor writing a tolerance means a number."""
    text = GOOD.replace("    compare: count\n",
                        "    compare: {mode: allclose, rtol: 1e-3, atol: 2E-6}\n")
    compare = load_spec(write(tmp_path, "t.yaml", text)).checks[0].compare
    assert (compare.rtol, compare.atol) == (1e-3, 2e-6)


# --- every validation error points at the offending line, not at its check's first line ---------

BROKEN = textwrap.dedent("""\
    id: broken
    title: Every kind of name mistake
    lecture: Practice 1
    uses: [num_patches, ANSWERS]
    checks:
      - name: an unknown reference
        call: num_patches
        reference: num_patchez
        generate: {generator: tiling_sizes}
      - name: an unknown generator
        call: num_patches
        generate:
          count: 3
          generator: tiling_sizez
      - name: an unknown misconception
        call: num_patches
        cases:
          - args: [8, 8, 2]
            expect: 16
        misconceptions:
          - like: floor_division_count
            hint: a known one
          - hint: its like comes second
            like: no_such_mistake
      - name: an input that cannot be built
        call: num_patches
        cases:
          - args: [8, 8, 2]
            expect: 16
          - args:
              - 8
              - {random: [2, 2], dist: uniform, dtype: not_a_dtype}
              - 2
      - name: a correct answer that is not an option
        answer:
          key: why
          options: {a: right, b: wrong}
          correct: c
      - name: an unknown property
        seed: 3
        property: no_such_property
    """)


def line_with(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def broken_errors(tmp_path) -> dict[str, int]:
    _, errors = spec_problems(write(tmp_path, "broken.yaml", BROKEN), "broken.yaml",
                              build_inputs=True)
    assert all(e.path == "broken.yaml" for e in errors)
    return {e.message: e.line for e in errors}


@pytest.mark.parametrize("message, needle", [
    ("unknown reference function 'num_patchez'", "reference: num_patchez"),
    ("unknown generator 'tiling_sizez'", "generator: tiling_sizez"),
    ("unknown misconception 'no_such_mistake'", "like: no_such_mistake"),
    ("check 'an input that cannot be built'", "dtype: not_a_dtype"),
    ("the correct answer 'c' is not among the options", "correct: c"),
    ("unknown property check 'no_such_property'", "property: no_such_property"),
])
def test_a_name_mistake_is_reported_at_its_own_line(tmp_path, message, needle):
    lines = [line for m, line in broken_errors(tmp_path).items() if m.startswith(message)]
    assert lines == [line_with(BROKEN, needle)]


def test_a_misconception_shared_by_an_anchor_is_reported_where_it_is_written(tmp_path):
    text = GOOD.replace("    compare: count\n", "    compare: count\n    misconceptions: &wrong\n"
                        "      - hint: a typo\n        like: floor_divison_count\n", 1)
    text += "    misconceptions: *wrong\n"
    _, errors = spec_problems(write(tmp_path, "t.yaml", text), "t.yaml")
    assert [e.line for e in errors] == [line_with(text, "like: floor_divison_count")] * 2
    assert "did you mean 'floor_division_count'?" in errors[0].message


@pytest.mark.parametrize("after, added, message", [
    ("        expect: 196\n", "        raises: ValueError\n", "both 'expect' and 'raises'"),
    ("        raises: ValueError\n", "        hint: [a, list]\n", "hint must be a string"),
], ids=["expect and raises: at raises", "a wrong type: at its key"])
def test_a_schema_error_in_a_case_is_reported_at_the_offending_key(tmp_path, after, added, message):
    text = GOOD.replace(after, after + added)
    error = error_of(write(tmp_path, "t.yaml", text))
    assert message in error.message
    assert error.line == line_with(text, added.strip())


def test_a_duplicate_id_is_reported_at_the_id_line(tmp_path):
    text = "# a comment first\n" + GOOD
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", text)
    _, errors = load_specs(tmp_path)
    assert [(e.path.endswith("b.yaml"), e.line) for e in errors] == [(True, 2)]
