"""Hiding the grader's secrets from student code (grader/secret_paths.py, grader/worker/hiding.py).

What is secret (the reference, the specs, the solutions, the run's outputs, the shared temporary
folders), for a checkout and for an installed copy; that a worker graded as root sees none of it
but still has its submission's folder, its working folder and its imports; what --verbose says;
and that off root nothing changes. The hostile search is tests/test_hostile.py's search_secrets.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader.secret_paths import hidden_paths
from grader.settings import GraderSettings

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = os.geteuid() == 0
LINUX = sys.platform.startswith("linux")
needs_root = pytest.mark.skipif(not (AS_ROOT and LINUX),
                                reason="hiding needs root on Linux; off root test_off_root_* "
                                       "checks that nothing changes")

PROBE = '''
import os, sys
from pathlib import Path

HERE = Path(__file__).parent

def look(paths):
    """What each path holds, as the worker sees it."""
    out = {}
    for path in paths:
        try:
            out[path] = sorted(os.listdir(path)) if os.path.isdir(path) else open(path).read()
        except OSError as exc:
            out[path] = f"error {exc.strerror}"
    return out

def own_files():
    """The submission's own data file, and a file written in the working folder."""
    Path("scratch.txt").write_text("mine")
    return [(HERE / "data.txt").read_text(), Path("scratch.txt").read_text()]

def grader_modules():
    return sorted(m for m in sys.modules if m.startswith("grader"))
'''


def settings(tmp_path: Path, **extra) -> GraderSettings:
    return GraderSettings(student=tmp_path / "sub" / "probe.py", exercises=ROOT / "exercises",
                          **extra)


def test_the_secrets_of_a_checkout_and_the_runs_outputs_are_listed(tmp_path):
    json_out, pl_out, out = tmp_path / "r.json", tmp_path / "pl.json", tmp_path / "graded"
    paths = hidden_paths(settings(tmp_path, json_out=json_out, prairielearn_out=pl_out,
                                  also_hidden=(out,)))
    real = os.path.realpath
    for wanted in (ROOT / "grader" / "reference", ROOT / "exercises", ROOT / "solutions",
                   json_out, pl_out, out, Path("/tmp")):
        assert real(wanted) in paths, wanted
    assert real(ROOT / "grader") not in paths and real(ROOT) not in paths  # the worker imports it
    assert len(paths) == len(set(paths))


def test_the_secrets_of_an_installed_copy_are_listed(tmp_path):
    """`pip install` (not editable) into a folder, then ask that copy what it hides: its own
    reference and shipped exercises; as root, grade from it and read what --verbose says."""
    source, target = tmp_path / "source", tmp_path / "installed"
    for name in ("grader", "exercises"):  # a copy: pip builds in the source (build/, egg-info)
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(target), str(source)], check=True, capture_output=True)
    assert (target / "grader" / "reference" / "patches.py").is_file()
    code = ("import sys; from pathlib import Path; from grader.settings import GraderSettings;"
            "from grader.secret_paths import hidden_paths; from grader.spec.locate import "
            "installed_exercises; import grader; print(grader.__file__);"
            "print('\\n'.join(hidden_paths(GraderSettings(student=Path('x.py'), "
            "exercises=installed_exercises()))))")
    env = {**os.environ, "PYTHONPATH": str(target)}
    shown = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, check=True,
                           capture_output=True, text=True).stdout.splitlines()
    assert shown[0] == str(target / "grader" / "__init__.py")  # that copy, not the checkout
    for name in ("reference", "_exercises"):
        assert os.path.realpath(target / "grader" / name) in shown[1:], name
    if not (AS_ROOT and LINUX):
        return
    # graded from that copy (under /tmp, which is covered: the copy is bound back, being on
    # sys.path, and its secrets covered again)
    result = subprocess.run([sys.executable, "-m", "grader.cli", "grade",
                             str(ROOT / "solutions" / "vit_exercises.py"), "--verbose"],
                            env=env, cwd=tmp_path, capture_output=True, text=True)
    note = [line for line in result.stdout.splitlines() if "from student code" in line]
    assert result.returncode == 0 and len(note) == 1, result.stdout[-3000:]
    for name in ("reference", "_exercises"):
        assert os.path.realpath(target / "grader" / name) in note[0], note[0]


@pytest.fixture
def probe(tmp_path):
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "probe.py").write_text(PROBE)
    (folder / "data.txt").write_text("the submission's own data")
    for path in (tmp_path, folder):
        path.chmod(0o755)
    return folder / "probe.py"


@pytest.fixture
def outside_tmp():
    """A folder where nothing else hides what the test puts there (/tmp is hidden whole)."""
    folder = Path(tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


@pytest.fixture
def old_results(outside_tmp):
    """A results file of an earlier run."""
    path = outside_tmp / "results.json"
    path.write_text('{"score": 42, "output": "someone else\'s feedback"}')
    path.chmod(0o644)
    return path


@needs_root
def test_a_worker_sees_none_of_the_secrets_but_keeps_what_it_needs(tmp_path, probe, old_results):
    from grader.worker import Limits, StudentWorker

    hide = hidden_paths(settings(tmp_path, json_out=old_results))
    with StudentWorker(probe, Limits(hide=hide)) as worker:
        report = worker.load()
        seen = worker.call("look", ([str(ROOT / "grader" / "reference"),
                                     str(ROOT / "exercises"), str(old_results),
                                     str(ROOT / "grader" / "worker")],)).value
        own = worker.call("own_files").value
        modules = worker.call("grader_modules").value
    assert report.hiding is not None and not report.hiding.reason, report.hiding
    assert seen[str(ROOT / "grader" / "reference")] == []
    assert seen[str(ROOT / "exercises")] == []
    assert seen[str(old_results)] == ""
    assert "serve.py" in seen[str(ROOT / "grader" / "worker")]  # what the worker imports stays
    assert own == ["the submission's own data", "mine"]
    assert "grader.reference" not in modules and "grader.worker.serve" in modules


@needs_root
def test_a_submission_inside_a_hidden_folder_keeps_its_folder(tmp_path, probe):
    """Grading the instructor's solutions/ (or a submission under /tmp): its folder is bound
    back, and said to be left visible; what is below another secret stays covered."""
    from grader.worker import Limits, StudentWorker

    inner = probe.parent / "exercises"
    inner.mkdir()
    (inner / "spec.yaml").write_text("id: secret")
    hide = (os.path.realpath(probe.parent), os.path.realpath(inner))
    with StudentWorker(probe, Limits(hide=hide)) as worker:
        report = worker.load()
        seen = worker.call("look", ([str(inner)],)).value
        own = worker.call("own_files").value
    assert report.hiding.kept == (os.path.realpath(probe.parent),)
    assert seen[str(inner)] == [] and own[0] == "the submission's own data"


@needs_root
def test_verbose_says_what_was_hidden(tmp_path):
    result = subprocess.run([sys.executable, "-m", "grader.cli", "grade",
                             str(ROOT / "solutions" / "vit_exercises.py"), "--verbose"],
                            cwd=tmp_path, capture_output=True, text=True)
    note = [line for line in result.stdout.splitlines() if "from student code" in line]
    assert len(note) == 1 and note[0].startswith("hidden from student code: "), result.stdout
    assert os.path.realpath(ROOT / "grader" / "reference") in note[0]


def test_off_root_nothing_is_hidden_and_verbose_says_why():
    """The unprivileged half: a worker that is not root mounts nothing and says so."""
    from grader.hiding_note import hiding_note
    from grader.worker import hiding, linux
    from grader.worker.outcomes import Hiding

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child that gives up root first, as a student's laptop never had it
        try:
            if AS_ROOT:
                os.setresuid(65534, 65534, 65534)
            os.write(write, repr(hiding.hide([str(ROOT / "grader" / "reference")], [])).encode())
        finally:
            os._exit(0)
    os.close(write)
    outcome = eval(os.read(read, 4096))  # noqa: S307 - our own child's repr of a dict
    os.close(read)
    os.waitpid(pid, 0)
    reason = "not running as root" if linux.LINUX else "not on Linux"
    assert outcome["reason"] == reason and outcome["hidden"] == []
    note = hiding_note(Hiding((), (), (), outcome["reason"]))
    assert note == f"secrets are not hidden from student code: {reason}"


@needs_root
def test_grade_all_hides_its_out_folder_and_the_other_students(outside_tmp):
    """A class of two: each student's worker sees neither --out (the other's results and
    feedback) nor the other's submission, but its own folder."""
    from grader.batch.grade_all import BatchOptions, grade_all

    tmp_path = outside_tmp
    submissions = tmp_path / "class"
    spy = ("import os\nfrom correct_solution import *  # noqa\n"
           "def patch_dim(P, C=3):\n"
           "    here = os.path.dirname(__file__)\n"
           "    seen = {p: sorted(os.listdir(p)) for p in (OUT, CLASS, here)}\n"
           "    raise RuntimeError(repr(seen))\n")
    out = tmp_path / "graded"
    for student in ("alice", "bob"):
        folder = submissions / student
        folder.mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / "vit_exercises.py", folder / "correct_solution.py")
        (folder / "vit_exercises.py").write_text(
            f"OUT, CLASS = {str(out)!r}, {str(submissions)!r}\n" + spy)
    for path in (tmp_path, submissions, *submissions.iterdir()):
        path.chmod(0o755)
    out.mkdir()
    (out / "earlier.json").write_text("{}")
    grade_all(BatchOptions(submissions=submissions, out=out, exercises=ROOT / "exercises",
                           jobs=1, progress=False))
    record = (out / "results" / "bob.json").read_text()
    assert f"'{out}': []" in record, record[:3000]
    assert f"'{submissions}': ['bob']" in record  # alice's folder is not there
    assert "'correct_solution.py', 'vit_exercises.py'" in record  # bob's own is


@pytest.mark.parametrize("given, verbose", [(1, True), (True, True), (0, False), (-1, False),
                                            (None, False), (ValueError, False)])
def test_verbose_is_pytests_count_or_our_switch(tmp_path, given, verbose):
    """`pytest -q` is a verbosity of -1 (not verbose); without pytest's terminal plugin
    (`vitgrade grade -q`) there is no such option at all."""
    from grader.settings import resolve_settings

    (tmp_path / "x.py").write_text("")
    options = {"student": "x.py", "exercises": str(ROOT / "exercises")}

    def getoption(name):
        if name == "verbose" and given is ValueError:
            raise ValueError("no option named 'verbose'")
        return given if name == "verbose" else options.get(name)

    assert resolve_settings(getoption, tmp_path).verbose is verbose
