"""Hiding the grader's secrets from student code (grader/secret_paths.py, grader/worker/hiding.py).

What is secret (the reference, the specs, the solutions, the run's outputs), for a checkout and
for an installed copy; that a worker graded as root sees only its view (none of the secrets, no
backup copy nobody listed, nothing else of the checkout) but still has its submission's folder,
its working folder and its imports; that it has no network and no capability; that without
namespaces (VITGRADE_NO_NAMESPACES=1) a copy locked as setup.sh locks it stays unread by a
file-system hunt; what --verbose says; and that off root nothing changes. The hostile searches
are tests/test_hostile.py's search_secrets and search_filesystem.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader.hiding_note import PERMISSIONS, VIEW
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

def connect(port):
    import socket
    client = socket.socket()
    client.settimeout(2)
    try:
        client.connect(("127.0.0.1", port))
        return "connected"
    except OSError as exc:
        return f"refused: {exc.strerror}"
    finally:
        client.close()

def capabilities():
    """The worker's effective and permitted capability sets, in hex."""
    return [line.split()[1] for line in open("/proc/self/status")
            if line.startswith(("CapEff", "CapPrm"))]
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
                   json_out, pl_out, out):
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
    # graded from that copy: the worker's view holds its grader.worker, never its reference
    result = subprocess.run([sys.executable, "-m", "grader.cli", "grade",
                             str(ROOT / "solutions" / "vit_exercises.py"), "--verbose"],
                            env=env, cwd=tmp_path, capture_output=True, text=True)
    note = [line for line in result.stdout.splitlines() if line.startswith(VIEW)]
    assert result.returncode == 0 and len(note) == 1, result.stdout[-3000:]
    assert os.path.realpath(target / "grader" / "worker") in note[0].split(", "), note[0]
    assert str(target / "grader" / "reference") not in note[0], note[0]


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
    assert report.hiding is not None and report.hiding.mechanism == "view", report.hiding
    for absent in (ROOT / "grader" / "reference", ROOT / "exercises", old_results):
        assert seen[str(absent)] == "error No such file or directory", absent
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
def test_verbose_says_what_student_code_sees(tmp_path):
    result = subprocess.run([sys.executable, "-m", "grader.cli", "grade",
                             str(ROOT / "solutions" / "vit_exercises.py"), "--verbose"],
                            cwd=tmp_path, capture_output=True, text=True)
    note = [line for line in result.stdout.splitlines() if "student code" in line]
    assert len(note) == 1 and note[0].startswith(f"{VIEW}: "), result.stdout
    seen = note[0].split(": ", 1)[1].split("; ")[0].split(", ")[1:]  # after "its working folder"
    assert os.path.realpath(ROOT / "grader" / "worker") in seen
    assert not [path for path in seen if path in (str(ROOT), str(ROOT / "grader"))]


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
    note = hiding_note(Hiding((), (), outcome["reason"]))
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
           "    seen = {p: sorted(os.listdir(p)) if os.path.isdir(p) else 'absent'\n"
           "            for p in (OUT, CLASS, here)}\n"
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
    grade_all(BatchOptions(submissions=submissions, out=out,
                           settings=GraderSettings(None, ROOT / "exercises"), jobs=1,
                           progress=False))
    record = (out / "results" / "bob.json").read_text()
    assert f"'{out}': 'absent'" in record, record[:3000]
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


@needs_root
def test_student_code_has_no_network_but_its_channel_works(probe):
    """A server on the host's 127.0.0.1 that this process reaches; student code cannot (a
    network namespace of its own), while its answers still come back."""
    from grader.worker import Limits, StudentWorker

    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.5)
    port = server.getsockname()[1]
    try:
        with StudentWorker(probe, Limits()) as worker:
            assert worker.load().ok
            got = worker.call("connect", (port,)).value
            own = worker.call("own_files").value
        with pytest.raises(TimeoutError):
            server.accept()  # nothing of the worker's arrived
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            server.accept()[0].close()  # the server works
    finally:
        server.close()
    assert got.startswith("refused: "), got
    assert own == ["the submission's own data", "mine"]


@pytest.fixture
def backup():
    """A copy of the reference and the specs where nobody lists it (a backup), readable by all."""
    folder = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="vitgrade-backup-"))
    shutil.copytree(ROOT / "grader" / "reference", folder / "reference")
    shutil.copytree(ROOT / "exercises", folder / "exercises")
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    yield folder
    shutil.rmtree(folder)


@needs_root
def test_a_copy_nobody_listed_and_the_rest_of_the_checkout_are_not_in_the_view(tmp_path, probe,
                                                                                  backup):
    from grader.worker import Limits, StudentWorker

    hide = hidden_paths(settings(tmp_path))
    assert not [path for path in hide if path.startswith(str(backup))]  # nobody listed it
    with StudentWorker(probe, Limits(hide=hide)) as worker:
        seen = worker.call("look", ([str(backup), str(backup / "reference"), str(ROOT / "tests"),
                                     str(ROOT), str(ROOT / "grader")],)).value
    assert seen[str(backup)] == seen[str(ROOT / "tests")] == "error No such file or directory"
    assert seen[str(backup / "reference")] == "error No such file or directory"
    for name in ("tests", "solutions", "exercises", ".git"):
        assert name not in seen[str(ROOT)], seen[str(ROOT)]
    assert seen[str(ROOT / "grader")] == ["__init__.py", "notebook_check.py", "worker"]


def _worker_in(mode: str, probe: Path, monkeypatch):
    """A worker of its own zygote, with a view ("view") or as if unshare were refused."""
    from grader.worker import Limits, StudentWorker, Zygote

    if mode == "permissions":
        monkeypatch.setenv("VITGRADE_NO_NAMESPACES", "1")
    zygote = Zygote()
    return zygote, StudentWorker(probe, Limits(), zygote=zygote)


@needs_root
@pytest.mark.parametrize("mode", ["view", "permissions"])
def test_the_worker_keeps_no_capability(probe, outside_tmp, monkeypatch, mode):
    """Not even CAP_DAC_READ_SEARCH, which it used to keep when Python sits under a folder
    others cannot enter (this project's CI: a pyenv under /root): a file of root's alone stays
    closed, and the worker still imports what it needs."""
    secret = outside_tmp / "root-only.txt"
    secret.write_text("root's")
    secret.chmod(0o600)
    zygote, worker = _worker_in(mode, probe, monkeypatch)
    try:
        with worker:
            report = worker.load()
            caps = worker.call("capabilities").value
            seen = worker.call("look", ([str(secret)],)).value
    finally:
        zygote.close()
    assert report.ok and report.hiding.mechanism == mode, report
    assert caps == ["0000000000000000", "0000000000000000"], caps
    assert seen[str(secret)].startswith("error "), seen


def _locked_copy(base: Path) -> Path:
    """The grader and its specs, made root's alone as Gradescope's setup.sh does -> the source
    folder. A marker line makes its files unlike the checkout's."""
    from grader.lms.gradescope_zip import LOCK_SECRETS

    project = base / "source" / "vit-grader"
    for name in ("grader", "exercises"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    for path in [*(project / "grader" / "reference").glob("*.py"),
                 *(project / "exercises").glob("*.yaml")]:
        path.write_text(path.read_text() + "\n# the locked copy\n")
    for path in (base, base / "source", *(base / "source").rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    env = {"PATH": os.environ["PATH"], "SOURCE": str(base / "source"),
           "PYTHON": sys.executable, "PYTHONPATH": str(project)}
    subprocess.run(["bash", "-c", "set -euo pipefail\n" + LOCK_SECRETS], env=env, check=True)
    return project


@needs_root
def test_without_namespaces_a_hunt_reads_nothing_setup_sh_locked(outside_tmp):
    """VITGRADE_NO_NAMESPACES=1 (as if the container refused unshare): graded from a copy locked
    as setup.sh locks it, the file-system hunt reads none of it, its stub gets no points, and
    --verbose says that permissions are in force and none of that copy is readable."""
    project = _locked_copy(outside_tmp)
    assert (project / "grader" / "reference").stat().st_mode & 0o077 == 0
    submission = outside_tmp / "sub"
    scratch = submission / "scratch" / "search_filesystem"
    scratch.mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "submissions" / "hostile" / "search_filesystem.py", submission)
    shutil.copy(ROOT / "solutions" / "vit_exercises.py", submission / "correct_solution.py")
    for path in (submission, submission / "scratch"):
        path.chmod(0o755)
    scratch.chmod(0o777)
    out = outside_tmp / "results.json"
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(project), "VITGRADE_NO_NAMESPACES": "1",
           "TMPDIR": str(outside_tmp)}
    result = subprocess.run([sys.executable, "-m", "grader.cli", "grade",
                             str(submission / "search_filesystem.py"), "--json", str(out),
                             "--exercises", str(project / "exercises"), "--verbose",
                             "--call-timeout", "5"],
                            env=env, cwd=project, capture_output=True, text=True)
    note = [line for line in result.stdout.splitlines() if line.startswith(PERMISSIONS)]
    assert len(note) == 1 and "VITGRADE_NO_NAMESPACES=1" in note[0], result.stdout[-3000:]
    assert str(project) not in note[0].split("its user can still read")[-1], note[0]
    reports = [json.loads(path.read_text()) for path in scratch.glob("found-*")]
    assert reports and reports[0]["walked"] > 10, result.stdout[-3000:]
    locked = {hashlib.sha256(path.read_bytes()).hexdigest()
              for path in project.rglob("*") if path.is_file()}
    found = [item for report in reports for item in report["found"]]
    assert not [path for path, digest in found
                if digest in locked or path.startswith(str(project))], found
    flatten = [test for test in json.loads(out.read_text())["tests"]
               if test["tags"][0] == "flatten-length"]
    assert flatten and sum(test["score"] for test in flatten) < sum(
        test["max_score"] for test in flatten)
