"""The folder's one compiled file (grader/checks/compiled_folder.py): it is what the specs' own
compiled files make, its cases' encoded inputs are the bytes `encode_call` makes of them, an
entry is used only while its spec's sha256 and the reference's version match, and `vitgrade
compile --check` names the file when it is stale."""
from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest

from grader.checks import compiled, compiled_folder
from grader.checks.cases import CasePlans
from grader.checks.catalogue import load_exercises
from grader.checks.kinds import CallCheck
from grader.spec import spec_files
from grader.worker.values import encode_call

from conftest import EXERCISES, ROOT


def test_the_committed_file_is_what_the_specs_compiled_files_make():
    assert compiled_folder.state(EXERCISES) == "fresh", "run `vitgrade compile`"


def test_every_kept_call_is_the_bytes_encode_call_makes_of_its_inputs():
    checked = 0
    for spec in spec_files(EXERCISES):
        data = compiled_folder.entry(spec)
        assert data is not None, spec.name
        own = compiled.load(spec)
        assert own is not None and data.tables == own.tables
        for key in data.tables.get(compiled_folder.CASES, {}):
            sent = data.encoded_calls(key)
            entries = own.lookup(compiled_folder.CASES, key)
            assert sent is not None and len(sent) == len(entries), key
            for entry, call in zip(entries, sent, strict=True):
                made = encode_call(tuple(entry["args"]), dict(entry["kwargs"]))
                assert call.json == made.json
                assert [bytes(b) for b in call.blobs] == list(made.blobs)
                checked += 1
    assert checked > 300  # the shipped specs' cases, every variant's


def test_the_pools_are_read_only_views_equal_to_the_npz_ones():
    spec = EXERCISES / "patchify.yaml"
    data, own = compiled_folder.entry(spec), compiled.load(spec)
    assert sorted(data.pools) == sorted(own.pools)
    for name, pool in data.pools.items():
        assert not pool.flags.writeable and pool.dtype == own.pools[name].dtype
        assert np.array_equal(pool, own.pools[name])


def test_the_body_is_read_in_place_not_copied():
    """A cold grade reads the file once: the pools and the kept calls are views of its bytes."""
    data = compiled_folder.path_of(EXERCISES).read_bytes()
    _, body = compiled_folder.parse(data)
    assert isinstance(body, memoryview) and body.obj is data


def test_a_cold_plan_sends_the_kept_bytes(monkeypatch):
    """The planned cases carry the compiled encoding: nothing is encoded again."""
    encoded = []
    import grader.checks.cases as cases

    monkeypatch.setattr(cases, "encode_call",
                        lambda *a, **k: encoded.append(1) or encode_call(*a, **k))
    plans, planned = CasePlans(), 0
    exercises, _ = load_exercises(EXERCISES)
    for exercise in exercises:
        for check in exercise.checks:
            if isinstance(check, CallCheck):
                for case in plans.cases(exercise, check):
                    assert case.sent is not None and case.encoded is case.sent
                    planned += 1
    assert planned > 100 and not encoded


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "exercises"
    shutil.copytree(EXERCISES, copy)
    return copy


def test_an_entry_is_used_only_while_its_spec_is_unchanged(folder):
    spec = folder / "patchify.yaml"
    assert compiled_folder.entry(spec) is not None
    spec.write_text(spec.read_text().replace("points: 2", "points: 3", 1))
    assert compiled_folder.entry(spec) is None  # its own files say stale, the reference computes
    assert compiled_folder.cached(spec) is None
    assert compiled_folder.entry(folder / "layer-norm.yaml") is not None  # the others still read
    assert compiled_folder.state(folder) == "stale"


def test_an_entry_is_used_only_while_the_reference_version_matches(folder, monkeypatch):
    spec = folder / "patchify.yaml"
    monkeypatch.setattr(compiled, "reference_version", lambda _folder=None: "another")
    assert compiled_folder.entry(spec) is None


def test_not_read_when_compiled_data_is_disabled(folder, monkeypatch):
    spec = folder / "patchify.yaml"
    monkeypatch.setenv(compiled.DISABLE, "1")
    assert compiled_folder.cached(spec) is None


@pytest.mark.parametrize("damage", ["truncated", "magic", "bits"])
def test_compile_check_names_a_damaged_or_stale_file(folder, damage):
    path = compiled_folder.path_of(folder)
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        data = data[:1000]
    elif damage == "magic":
        data[0] ^= 0x20
    else:  # a flipped byte in the body: still a file that reads
        data[-9] ^= 0x40
    path.write_bytes(bytes(data))
    if damage != "bits":
        assert all(compiled_folder.entry(s) is None for s in spec_files(folder))
    assert compiled_folder.state(folder) == "stale"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "compile", "--check",
                           "--exercises", str(folder)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and f"{compiled_folder.NAME}: stale" in done.stdout
