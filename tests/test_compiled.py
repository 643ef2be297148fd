"""Compiled expectations (grader/checks/compiled.py): the committed data is fresh and equal to
what the reference computes, stale or corrupt data never changes a grade, and the tables that
replace the reference's introspection agree with it."""
from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from grader import load_spec
from grader.checks import compiled, compiled_folder, grade_exercise, parsed_specs
from grader.checks.answer_key import SEALED, plain_key, seal, sealed_key
from grader.checks.api import MISCONCEPTION_NAMES, SIGNATURES
from grader.checks.cases import CasePlans
from grader.checks.catalogue import load_exercise, load_exercises
from grader.checks.compile_specs import compile_exercise, compile_folder, compile_spec
from grader.checks.compiled import same  # the comparison `vitgrade compile` keeps data by
from grader.checks.kinds import CallCheck
from grader.checks.results import ERROR, PASSED
from grader.checks.spec_file import read_spec
from grader.params import ACTIVATION_NAMES, HEAD_ACTIVATION_NAMES
from grader.spec import SpecError, spec_files

from conftest import EXERCISES, ROOT, SOLUTION


def test_the_committed_compiled_data_is_fresh():
    states = {p.name: compiled.state(p) for p in spec_files(EXERCISES)}
    stale = [f"{name}: {state}" for name, state in states.items() if state != "fresh"]
    assert not stale, f"run `vitgrade compile`: {stale}"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "compile", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_editors_schema_is_the_whole_schema():
    """exercises/schema.json (a spec's `$schema=schema.json`) is what `vitgrade validate` checks
    with, every kind's keys included (a stale one is told and written again: below, with the
    shipped exercises compiled once more)."""
    from grader.checks.spec_file import schema

    assert json.loads((EXERCISES / "schema.json").read_text()) == schema()
    assert "call_check" in schema()["$defs"]


def test_compiled_cases_are_what_the_reference_computes():
    plans = CasePlans()
    checked = 0
    for path in spec_files(EXERCISES):
        exercise = load_exercise(path)
        for check in exercise.checks:
            if not isinstance(check, CallCheck):
                continue
            read = plans.cases(exercise, check)
            computed = check.plan(exercise.folder)
            assert all(p.from_compiled for p in read) and not any(p.from_compiled for p in computed)
            assert len(read) == len(computed)
            for r, c in zip(read, computed, strict=True):
                assert same(r.args, c.args) and same(r.kwargs, c.kwargs), check.name
                assert same(r.expectation(), c.expectation()), check.name
                assert r.source == c.source and r.case is c.case
                assert r.encoded == c.encoded
                for known in check.misconceptions:
                    assert same(r.wrong_output(known.like), c.wrong_output(known.like))
                checked += 1
    assert checked > 300


def test_grading_from_compiled_data_never_imports_the_reference():
    script = (
        "import sys\n"
        "from grader.checks import grade_exercise\n"
        "from grader.checks.catalogue import load_exercises\n"
        "from grader.worker import StudentWorker\n"
        f"exercises, _ = load_exercises({str(EXERCISES)!r})\n"
        f"with StudentWorker({str(SOLUTION)!r}) as worker:\n"
        "    results = [grade_exercise(e, worker) for e in exercises]\n"
        "assert all(r.score == r.max_score for r in results)\n"
        "print('grader.reference' in sys.modules, 'grader.reference.misconceptions' in "
        "sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_the_tables_that_replace_the_references_introspection_agree_with_it():
    from grader.reference import REFERENCE
    from grader.reference.config import HEAD_ACTIVATIONS
    from grader.reference.layers import ACTIVATIONS
    from grader.reference.misconceptions import MISCONCEPTIONS

    signatures = {name: tuple(p.name for p in inspect.signature(f).parameters.values()
                              if p.default is inspect.Parameter.empty)
                  for name, f in REFERENCE.items()}
    assert signatures == SIGNATURES
    assert set(MISCONCEPTIONS) == MISCONCEPTION_NAMES
    assert set(ACTIVATION_NAMES) == set(ACTIVATIONS)
    assert set(HEAD_ACTIVATION_NAMES) == set(HEAD_ACTIVATIONS)


def test_the_compiled_instances_are_the_error_model_mistakes_the_reference_registers():
    """compiled.INSTANCES (which error-model mistake a listed known-wrong variant is: the
    student bundle's only way to know, report/discarded.py) holds every listed variant the
    reference registers as one, and nothing else."""
    from grader.checks.course import error_model_mistake

    held = 0
    for path in spec_files(EXERCISES):
        exercise = load_exercise(path)
        listed = {known.like for check in exercise.checks
                  for known in getattr(check, "misconceptions", ())}
        want = {like: m for like in listed if (m := error_model_mistake(like, exercise.folder))}
        table = compiled.cached(path).tables.get(compiled.INSTANCES, {})
        assert {like: compiled.lookup(path, compiled.INSTANCES, like) for like in table} == want
        held += len(want)
    assert held >= 10 and error_model_mistake("patchify_channel_first") is None  # not one


def test_values_keep_their_types_through_the_format(tmp_path):
    values = [1, 2.5, float("nan"), True, None, "x", (1, 2), [np.float32(1.5), np.int64(3)],
              {"b": np.arange(6.0).reshape(2, 3), "a": np.zeros((0, 4), np.float32)},
              np.array(7.0), np.array([True, False]), np.arange(3, dtype=np.int32)]
    pools = compiled.Pools()
    raw = compiled.encode(values, pools)
    spec = tmp_path / "x.yaml"
    spec.write_text("id: x\n")
    compiled.write(spec, {"t": {"k": raw}}, pools)
    assert compiled.state(spec) == "fresh"
    back = compiled.load(spec).lookup("t", "k")
    assert same(back, values)
    assert compiled.lookup(spec, "t", "missing") is None
    assert compiled.lookup(spec, "other", "k") is None
    with pytest.raises(TypeError):
        compiled.encode(object(), pools)


@pytest.fixture
def copied(tmp_path):
    """A copy of the patchify spec and its compiled data (with the course's own functions, which
    the compiled data depends on: compiled.reference_version)."""
    from grader.checks.course import FOLDER, declarations, reference_files

    folder = tmp_path / "exercises"
    (folder / "compiled").mkdir(parents=True)
    declaring = [d.spec for d in declarations(EXERCISES).values()]
    for spec in dict.fromkeys(["patchify.yaml", *declaring]):
        shutil.copy(EXERCISES / spec, folder)
        for path in compiled.paths(EXERCISES / spec):
            shutil.copy(path, folder / "compiled")
    shutil.copy(parsed_specs.path_of(EXERCISES), folder / "compiled")  # every spec's: harmless
    if reference_files(EXERCISES):
        shutil.copytree(EXERCISES / FOLDER, folder / FOLDER)
    return folder / "patchify.yaml"


def grade_patchify(spec) -> list:
    from grader.worker import StudentWorker

    with StudentWorker(SOLUTION) as worker:
        return grade_exercise(load_exercise(spec), worker).checks


def no_reference(monkeypatch):
    """This grader as the bundle's: compiled.has_reference() says there is no reference."""
    monkeypatch.setattr(compiled, "has_reference", lambda: False)


def test_a_changed_spec_is_stale_and_graded_from_the_reference(copied, monkeypatch):
    assert compiled.state(copied) == "fresh"
    copied.write_text(copied.read_text().replace("points: 2", "points: 3", 1))
    assert compiled.state(copied) == "stale" and compiled.load(copied) is None
    assert all(c.status == PASSED for c in grade_patchify(copied))
    no_reference(monkeypatch)  # the bundle: no reference to fall back on, one clear message
    checks = grade_patchify(copied)
    call_checks = [c for c, s in zip(checks, load_spec(copied).checks, strict=True)
                   if isinstance(s, CallCheck)]
    assert call_checks and all(c.status == ERROR for c in call_checks)
    assert "compiled expectations are missing or stale" in call_checks[0].message
    assert "Traceback" not in call_checks[0].message


@pytest.mark.parametrize("damage", ["json", "npz", "bits", "offset", "dtype"])
def test_a_corrupt_compiled_file_never_changes_a_grade(copied, monkeypatch, damage):
    index_path, arrays_path = compiled.paths(copied)
    if damage == "json":
        index_path.write_text(index_path.read_text()[:-200])
    elif damage == "npz":
        arrays_path.write_bytes(arrays_path.read_bytes()[:100])
    elif damage == "bits":  # a flipped byte in an array: still a valid .npz
        data = bytearray(arrays_path.read_bytes())
        data[-9] ^= 0x40
        arrays_path.write_bytes(bytes(data))
    else:
        index = json.loads(index_path.read_text())
        text = json.dumps(index)
        if damage == "offset":  # each value is JSON text of its own (compiled.FORMAT 2)
            index["tables"] = {table: {key: value.replace('["float64",0,', '["float64",99999999,')
                                       for key, value in values.items()}
                               for table, values in index["tables"].items()}
            text = json.dumps(index)
        else:
            np.savez(arrays_path, float64=np.zeros(3, np.int8))
            index = json.loads(text)
            index.pop("arrays_sha256")  # a file without its checksum is still checked
            text = json.dumps(index)
        index_path.write_text(text)
    assert compiled.state(copied).startswith("corrupt: compiled/patchify")
    assert all(c.status == PASSED for c in grade_patchify(copied))  # computed instead
    done = subprocess.run([sys.executable, "-m", "grader.cli", "compile", "--check",
                           "--exercises", str(copied.parent)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and done.stdout.startswith("patchify.yaml: corrupt")
    assert "Traceback" not in done.stdout + done.stderr
    no_reference(monkeypatch)
    messages = [c.message for c in grade_patchify(copied) if c.status == ERROR]
    assert messages and all("compiled/patchify" in m and "Traceback" not in m for m in messages)


def test_compiled_data_is_not_read_when_disabled(copied, monkeypatch):
    assert compiled.load(copied) is not None
    monkeypatch.setenv(compiled.DISABLE, "1")
    assert compiled.load(copied) is None


# --- what `vitgrade compile` writes: only what changed beyond `same` ---------------------------

OLD = 10**18  # ns (2001): the mtime pinned on compiled files; a file written gets the time of now


def pinned(folder) -> dict:
    """`compiled_files(folder)`, each file's mtime pinned to OLD first."""
    for path in (folder / compiled.FOLDER).iterdir():
        os.utime(path, ns=(OLD, OLD))
    return compiled_files(folder)


def compiled_files(folder) -> dict:
    """{name: (bytes, mtime)} of the compiled files of the exercises folder `folder`."""
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns)
            for path in (folder / compiled.FOLDER).iterdir()}


def test_compiling_the_shipped_exercises_again_writes_only_a_stale_schema(tmp_path, capsys):
    """One compile of the whole shipped folder (about half a minute): the committed data is
    what this machine's reference computes, and a stale editors' schema.json is told and
    written again, alone."""
    from grader.checks.compile_specs import stale_specs
    from grader.cli import main

    folder = tmp_path / "exercises"
    shutil.copytree(EXERCISES, folder)  # the committed data, compiled once more here
    (folder / "schema.json").write_text("{}")
    assert stale_specs(folder) == ["schema.json: stale (the schema changed)"]
    before = pinned(folder)
    # and the kept specs' file, and the folder's one compiled file (compiled_folder.py)
    assert len(before) == 2 * len(spec_files(folder)) + 2
    # exit status 0: no note (compile_folder's notes make it 1)
    assert main(["compile", "--exercises", str(folder), "--solution", str(SOLUTION)]) == 0
    # no compiled file written: else the committed data is not what this machine's reference
    # computes (run `vitgrade compile`); its last bits of BLAS are not a change. The schema
    # alone is written again.
    assert capsys.readouterr().out.endswith(f": 1 file(s) written, {len(before)} unchanged\n")
    assert compiled_files(folder) == before
    assert (folder / "schema.json").read_text() == (EXERCISES / "schema.json").read_text()
    assert not stale_specs(folder)


@pytest.mark.parametrize("noise", [1e-15, 1e-9])
def test_arrays_that_differ_only_by_noise_are_not_written(copied, noise):
    checked = read_spec(copied, copied.name)
    tables, pools = compile_exercise(load_exercise(copied, checked=checked), solution=SOLUTION)
    computed = pools.parts["float64"]
    pools.parts["float64"] = [part + noise for part in computed]
    assert any((a != b).any() for a, b in zip(pools.parts["float64"], computed, strict=True))
    is_noise = noise < 1e-12  # `same`'s tolerance
    before = pinned(copied.parent)
    written = compiled.write(copied, tables, pools)  # over the committed data
    assert (written == []) == is_noise
    assert (compiled_files(copied.parent) == before) == is_noise
    for path in compiled.paths(copied):  # now the stored arrays are the ones off by `noise`
        path.unlink()
    compiled.write(copied, tables, pools)
    before = pinned(copied.parent)
    written = compile_spec(copied, solution=SOLUTION)  # as `vitgrade compile` does
    assert compiled.state(copied) == "fresh"
    if is_noise:
        assert written == [] and compiled_files(copied.parent) == before
    else:
        assert written == list(compiled.paths(copied))[::-1]  # both: the arrays, then the index
        assert all(before[p.name][0] != p.read_bytes() for p in written)


def test_a_changed_case_rewrites_that_specs_files_only(copied):
    shutil.copy(EXERCISES / "schema.json", copied.parent)  # the editors' schema, as committed
    for other in ("kernel-stride.yaml", "layer-norm.yaml"):  # specs beside it, unchanged
        shutil.copy(EXERCISES / other, copied.parent)
        for path in compiled.paths(EXERCISES / other):
            shutil.copy(path, copied.parent / compiled.FOLDER)
    before = pinned(copied.parent)
    assert len(before) == 7  # and the kept specs' file
    text = copied.read_text()
    copied.write_text(text.replace("{random: [8, 4, 3], seed: 1}", "{random: [8, 4, 3], seed: 5}"))
    assert copied.read_text() != text
    written, unchanged, notes = compile_folder(copied.parent, SOLUTION)
    kept = parsed_specs.path_of(copied.parent)  # patchify's entry changed
    one_file = compiled_folder.path_of(copied.parent)  # made from the specs' files: new here
    assert not notes and sorted(written) == sorted([*compiled.paths(copied), kept, one_file])
    after = compiled_files(copied.parent)
    changed = {"patchify.json", "patchify.npz", kept.name}
    assert {name for name in before if after[name] != before[name]} == changed
    assert sorted(p.name for p in unchanged) == sorted(set(before) - changed | {"schema.json"})
    assert compiled.state(copied) == "fresh" and parsed_specs.state(copied) == "fresh"
    assert list(parsed_specs.stored(copied.parent)["specs"]) == [  # only the folder's specs
        "kernel-stride.yaml", "layer-norm.yaml", "patchify.yaml"]


def test_a_sealed_answer_key_judges_and_explains_like_the_plain_one():
    options = {"Permutation": "Right.", "speed": "No: attention costs the same.", "cls": "No."}
    sealed = seal("permutation", options)
    text = json.dumps(sealed)
    assert "Right." not in text and "attention costs" not in text and "permutation" in text
    plain, key = plain_key("permutation", options), sealed_key(sealed)
    for answer in ("permutation", " PERMUTATION ", "speed", "cls", "nope"):
        assert key.verdict(answer) == plain.verdict(answer)
        if plain.verdict(answer) is False:
            assert key.feedback(answer) == plain.feedback(answer)
    assert key.verdict("permutation") is True and key.verdict("nope") is None
    assert seal("permutation", options)["salt"] != sealed["salt"]  # a fresh salt each build
    with pytest.raises(ValueError):
        sealed_key({"options": {}})
    assert key.verdict(SEALED) is None  # the bundle's marker is no answer a student can give


def test_lookup_reads_a_fresh_file_and_rereads_a_changed_one(copied):
    first = compiled.lookup(copied, "cases", "errors")
    assert [entry["raises"] for entry in first] == ["ValueError", "ValueError"]
    assert compiled.lookup(copied, "cases", "no such check") is None
    copied.write_text(copied.read_text() + "\n")  # now stale
    assert compiled.lookup(copied, "cases", "errors") is None


def test_compiled_data_is_found_after_the_working_folder_changed(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    exercise = load_exercise("exercises/patchify.yaml")  # its path is shown relative to here
    monkeypatch.chdir(tmp_path)
    call = next(c for c in exercise.checks if isinstance(c, CallCheck))
    assert all(p.from_compiled for p in CasePlans().cases(exercise, call))


def test_validate_notes_stale_and_corrupt_compiled_data_in_one_line(copied, capsys):
    from grader.cli import main

    assert main(["validate", str(copied.parent)]) == 0
    assert "note:" not in capsys.readouterr().out
    index = compiled.paths(copied)[0]
    index.write_text(index.read_text()[:50])
    assert main(["validate", str(copied.parent)]) == 0  # grading computes the values meanwhile
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note:")]
    assert notes == [notes[0]] and "patchify.yaml: corrupt: compiled/patchify.json" in notes[0]
    copied.write_text(copied.read_text() + "\n")
    compile_spec(copied)
    copied.write_text(copied.read_text() + "\n")
    main(["validate", str(copied.parent)])
    assert "patchify.yaml: its compiled data is stale" in capsys.readouterr().out


# --- the parsed specs kept for the folder (parsed_specs.py) -------------------------------------

@pytest.mark.parametrize("spec", spec_files(EXERCISES), ids=lambda path: path.stem)
def test_a_kept_spec_loads_as_the_yaml_does(spec, monkeypatch):
    """The exercise built from the kept data (catalogue.parsed) is the one the YAML gives, lines
    included, and neither YAML nor the schema is touched to build it."""
    from grader.checks import catalogue

    parsed = from_yaml(spec)
    monkeypatch.setattr(catalogue, "read_spec", lambda *_: pytest.fail(
        f"the YAML of {spec.name} was parsed: its compiled data is missing or stale; run "
        "`vitgrade compile` and commit exercises/compiled/"))
    kept = load_spec(spec)
    assert kept == parsed and kept.lines == parsed.lines
    assert [c.lines for c in kept.checks] == [c.lines for c in parsed.checks]


def test_loading_the_catalogue_reads_no_yaml_and_opens_no_compiled_index(monkeypatch):
    """The catalogue loads from the one file of kept specs; a spec's compiled index is read when
    grading first looks a value up, not before (issue 39: the cold path)."""
    from grader.checks import catalogue

    def opened(*_):
        pytest.fail("the catalogue's load opened a compiled index or parsed a spec's YAML")

    for module, name in ((compiled, "cached"), (compiled, "load"), (catalogue, "read_spec")):
        monkeypatch.setattr(module, name, opened)
    exercises, errors = load_exercises(EXERCISES)
    assert len(exercises) == len(spec_files(EXERCISES)) and not errors


def from_yaml(spec):
    """The spec as its YAML reads, whatever its compiled data keeps."""
    return load_spec(spec, checked=read_spec(spec, spec.name))


@pytest.mark.parametrize("damage", ["parser", "data", "lines", "sha256", "checks", "removed",
                                    "not json"])
def test_a_kept_spec_that_does_not_fit_is_parsed_instead(copied, damage):
    path = parsed_specs.path_of(copied.parent)
    kept = json.loads(path.read_text())
    entry = kept["specs"]["patchify.yaml"]
    if damage == "parser":  # another version of grader/spec/ kept it
        kept["parser"] = "0" * 32
    elif damage == "data":
        entry["data"] = ["not", "a", "spec"]
    elif damage == "lines":
        entry["lines"] = [["checks", "x"]]
    elif damage == "sha256":  # kept for other bytes of the spec
        entry["sha256"] = "0" * 64
    elif damage == "checks":  # passes the shape check, does not build
        del entry["data"]["checks"]
    else:
        del kept["specs"]["patchify.yaml"]
    path.write_text("{" if damage == "not json" else json.dumps(kept))
    # the shape is checked when read; what does not build is found when loading
    assert parsed_specs.state(copied) == {"checks": "fresh", "removed": "missing",
                                          "not json": "missing"}.get(damage, "stale")
    assert compiled.state(copied) == "fresh"  # the compiled cases do not depend on it
    assert load_spec(copied) == from_yaml(copied)
    assert all(c.status == PASSED for c in grade_patchify(copied))


def test_an_edited_spec_is_parsed_and_says_where_it_is_wrong(copied):
    copied.write_text(copied.read_text().replace("title:", "titel:", 1))
    with pytest.raises(SpecError, match=r"patchify.yaml:1: the spec is missing the key 'title'"):
        load_exercise(copied)


def test_a_spec_json_cannot_hold_exactly_is_not_kept():
    data, lines = {"id": "x", "checks": [{"options": {1: "int key"}}]}, {(): 1}
    spec = EXERCISES / "patchify.yaml"
    assert parsed_specs.entry(spec, data, lines) is None
    assert parsed_specs.entry(spec, {"x": float("nan")}, lines) is None
    assert parsed_specs.entry(spec, {"id": "x"}, {(): 1, ("id",): 1})["lines"] == [[1], ["id", 1]]
