"""Hostile submissions (tests/submissions/hostile/): each costs at most the exercises that use its
hostile function, ends in bounded time with valid JSON results, leaves no process running and
the grader's files as they were.

Every attack is graded once, as an autograder would, by `python -m grader.cli grade SUB --json OUT`
in a copy of the project (its grader package and exercises, owned by whoever runs the tests),
all of them in parallel, with short limits; each test then checks one property of one attack.
The submissions are the instructor's solution (copied next to them as correct_solution.py) with
one hostile function; a control run of the solution alone gives the maximum of each exercise.
When the tests run as root (as CI does) the workers drop to users of their own; the attacks
that only that prevents are run only then (docs/security.md). Evidence that a process escaped:
pids and uids the submissions record in their scratch folders, a marker in the command line of
what they start, and this process made a child subreaper while they run, so that anything that
escapes every grader process becomes our child.
"""

from __future__ import annotations

import compileall
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from process_table import adopting_orphans, cmdline, processes, running_identities

from grader import load_specs
from grader.checks import compiled
from grader.spec.parse import spec_files

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the sandbox is Linux's (docs/security.md)")

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "submissions" / "hostile"
SOLUTION = ROOT / "solutions" / "vit_exercises.py"
AS_ROOT = os.geteuid() == 0
# Short limits keep the suite quick; a legitimate call of the solution takes ~10 ms.
LIMITS = ["--load-timeout", "3", "--memory-mb", "256",
          "--max-processes", "4"]
# a grading still running after this is a hang, and is killed: they take 2-8 s (20 times that on
# a loaded machine), and the grader ends each at its own deadline (--submission-timeout, 90 s)
HANG_SECONDS = 300
# runs a command, then writes the largest resident size of what it waited for (KB). A process
# forked from this test's (~500 MB by the end of the suite) would count the test's pages as its
# own: started from this small one, the command's size is its own.
MEASURED = """import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code if code >= 0 else 128 - code)
"""
# a grading is mostly CPU (1.5 s of it); the attacks mostly wait
PARALLEL = min(8, 2 * (os.cpu_count() or 1))
SECRET = "VITGRADE_TEST_SECRET"
PATCH_DIM = frozenset({"flatten-length"})  # the exercises that call each hostile function
CONV = frozenset({"kernel-stride"})
NOTHING = frozenset()
ONLY_SOLUTION_CALLS = "answers only the calls the course solution makes on this case"
# the catalogue each attack's `loses` is written for; an exercise a course adds (docs/authoring.md)
# may lose points only if its `uses:` names a function the submission defines itself
SHIPPED = frozenset({
    "patch-count", "token-count", "flatten-length", "attention-cost", "patchify",
    "linear-patch-embed", "kernel-stride", "cls-and-positions", "why-positions", "stable-softmax",
    "layer-norm", "no-causal-mask", "multi-head-attention", "encoder-block", "vit-forward",
    "pretrained-or-scratch", "vit-checkpoint"})


@dataclass(frozen=True)
class Attack:
    stem: str  # the submission tests/submissions/hostile/<stem>.py (its copy's name, see `fixture`)
    loses: frozenset  # exercises that must lose points; every other one keeps all of its own
    root_only: bool = False  # prevented only by the worker's own user (the grader runs as root)
    fixture: str | None = None  # the file, when two attacks share one
    # where --json goes: "results" (only the grader's user may write) or "shared" (anyone)
    results: str = "results"
    note: str = ""  # what the student's message must say
    # --call-timeout: an attack stopped by another limit (memory, file size, the channel's
    # bounds) reaches it by working, which a loaded machine can slow past 1 s; a long timeout
    # costs it nothing, since the limit ends it first
    call_timeout: float = 1

    @property
    def source(self) -> Path:
        return HOSTILE / f"{self.fixture or self.stem}.py"


ATTACKS = [
    Attack("infinite_loop", PATCH_DIM,
           note="`patch_dim` did not return within 1 s; its other cases were not run"),
    Attack("top_level_loop", NOTHING,
           note="stopped after 1 s, the grader's time limit for top-level code"),
    Attack("sys_exit", PATCH_DIM, note="SystemExit"),
    Attack("keyboard_interrupt", PATCH_DIM, note="KeyboardInterrupt"),
    Attack("os_exit", PATCH_DIM, note="the worker process exited with code 0"),
    Attack("segfault", PATCH_DIM,
           note="the worker process died (signal 11: SIGSEGV)"),
    Attack("deep_recursion", PATCH_DIM, note="the worker process died (signal 11: SIGSEGV)"),
    Attack("memory_bomb", PATCH_DIM,
           note="the grader limits the memory of your code to 256 MB", call_timeout=20),
    Attack("fork_bomb", PATCH_DIM, note="`patch_dim` did not return within 1 s"),
    Attack("escape_daemon", NOTHING),
    Attack("huge_file", PATCH_DIM,
           note="File too large (the grader limits files your code writes to 64 MB)",
           call_timeout=20),
    Attack("print_50mb", NOTHING, call_timeout=20),
    Attack("patch_numpy", CONV),
    Attack("ndarray_subclass", CONV),
    Attack("always_equal", PATCH_DIM, note="got:      an object of type always_equal.Everything"),
    Attack("object_array", CONV, note="dtype object"),
    Attack("nested_lists", CONV),
    Attack("nans", CONV, note="your answer has nan"),
    Attack("absurd_size", CONV, note="not sent: arrays in one message are limited to 64 MB",
           call_timeout=20),
    Attack("json_bomb", CONV, note="not sent: more than 100000 lists, tuples and dicts",
           call_timeout=20),
    Attack("stack_walk", CONV),
    Attack("print_newlines", NOTHING),
    Attack("list_answers", NOTHING),
    Attack("reused_blob", CONV, note="is used twice"),
    Attack("swallowing_loop", NOTHING,
           note="stopped after 1 s, the grader's time limit for top-level code"),
    Attack("imports_reference", frozenset({"patchify"}), note="cannot be imported by a submission"),
    Attack("steal_secrets", NOTHING),
    Attack("search_secrets", PATCH_DIM, note="Vision Transformers: the Lab 4 exercises"),
    Attack("search_filesystem", PATCH_DIM, root_only=True),
    Attack("fake_results", NOTHING, root_only=True),
    Attack("fake_results_shared", NOTHING, fixture="fake_results", results="shared"),
    Attack("write_grader_files", NOTHING, root_only=True),
    Attack("signal_grader", NOTHING, root_only=True),
    # stand-ins answer only the calls the course solution makes (issue 22): no points for a
    # function that was never written, nothing run in the grading process for a stand-in
    # (kernel-stride keeps its points: its convolution is the solution's, compared with the
    # grader's linear_patch_embed standing in for the one written through embed_image)
    Attack("stub_through_embed_image", frozenset({
        "patch-count", "token-count", "attention-cost", "patchify", "linear-patch-embed",
        "cls-and-positions", "why-positions"}), note=ONLY_SOLUTION_CALLS),
    Attack("defined_through_each_other", frozenset({"patch-count", "patchify"}),
           note=ONLY_SOLUTION_CALLS),
    Attack("long_stand_in_call", frozenset({"layer-norm", "vit-forward", "vit-checkpoint"}),
           note=ONLY_SOLUTION_CALLS),
    Attack("broadcasting_stand_in_call", frozenset({"stable-softmax", "layer-norm"}),
           note=ONLY_SOLUTION_CALLS),
]
RUN = [attack for attack in ATTACKS if AS_ROOT or not attack.root_only]
CONTROL = Attack("control", NOTHING)


@dataclass
class Graded:
    attack: Attack
    code: int
    killed: bool  # still running after HANG_SECONDS: the test killed it
    output: str  # what the grader printed
    results: dict | None  # the JSON results file, parsed
    results_text: str
    scratch: Path  # the evidence the submission left
    max_rss_mb: float  # the largest resident size of the grading process (or of what it waited for)


class Arena:
    """A copy of the project (grader/, exercises/), the submissions, and folders for results."""

    def __init__(self, base: Path):
        self.base, self.project = base, base / "project"
        shutil.copytree(ROOT / "grader", self.project / "grader",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(ROOT / "exercises", self.project / "exercises")
        course = self.project / "exercises" / "reference"  # the course's own (checks/course.py)
        course.mkdir(exist_ok=True)
        (course / "course_steps.py").write_text(COURSE_REFERENCE)
        # a course that declares functions of its own keys its compiled data on every file of
        # reference/: compiled again for the one added here, as `vitgrade compile` would be
        exercises = self.project / "exercises"
        if any(compiled.state(spec) != "fresh" for spec in spec_files(exercises)):
            subprocess.run([sys.executable, "-m", "grader.cli", "compile", "--exercises",
                            str(exercises), "--solution", str(SOLUTION)],
                           cwd=ROOT, check=True, capture_output=True)
        # then nothing writes into the copy
        compileall.compile_dir(self.project / "grader", quiet=1)
        self.submissions = base / "submissions"
        self.submissions.mkdir()
        shutil.copy(ROOT / "solutions" / "vit_exercises.py",
                    self.submissions / "correct_solution.py")
        (self.submissions / "control.py").write_text(
            "from correct_solution import *  # noqa: F401,F403\n")
        self.marker = f"vitgrade-hostile-{os.getpid()}-{time.monotonic_ns()}"
        for attack in RUN:
            shutil.copy(attack.source, self.submissions / f"{attack.stem}.py")
            scratch = self.scratch(attack)
            scratch.mkdir(parents=True)
            (scratch / "marker").write_text(self.marker)
            # what it may guess of its results path (its /proc lists no grader to read it from)
            (scratch / "guess").write_text(str(base / attack.results / f"{attack.stem}.json"))
            scratch.chmod(0o777)  # the worker's user leaves its evidence here
        (base / "results").mkdir()  # only the grader's user may write here (as /autograder/results)
        (base / "shared").mkdir()
        (base / "shared").chmod(0o1777)  # anyone may (as /tmp)
        (base / "tmp").mkdir()  # the workers' folders are made here
        for folder in (base, self.project, self.submissions, self.submissions / "scratch"):
            folder.chmod(0o755)

    def scratch(self, attack: Attack) -> Path:
        return self.submissions / "scratch" / attack.stem

    def grade(self, attack: Attack) -> Graded:
        out = self.base / attack.results / f"{attack.stem}.json"
        env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": str(self.base),
               "TMPDIR": str(self.base / "tmp"),
               "PYTHONDONTWRITEBYTECODE": "1", SECRET: "s3cr3t", "GITHUB_TOKEN": "s3cr3t"}
        command = [sys.executable, "-m", "grader.cli", "grade",
                   str(self.submissions / f"{attack.stem}.py"),
                   "--json", str(out), "--exercises", str(self.project / "exercises"), *LIMITS,
                   "--call-timeout", f"{attack.call_timeout:g}", "--verbose"]
        rss = self.base / f"{attack.stem}.maxrss"
        start, killed = time.monotonic(), False
        with tempfile.TemporaryFile("w+") as log:
            process = subprocess.Popen([sys.executable, "-c", MEASURED, str(rss), *command],
                                       cwd=self.project, env=env, stdout=log, stderr=log,
                                       text=True, start_new_session=True)
            deadline = start + HANG_SECONDS
            # wait4: its resource usage too
            while not (done := os.wait4(process.pid, os.WNOHANG))[0]:
                if time.monotonic() > deadline:
                    os.killpg(process.pid, signal.SIGKILL)  # the grader too, not only MEASURED
                    done, killed = os.wait4(process.pid, 0), True
                    break
                time.sleep(0.05)
            _pid, status, usage = done
            process.returncode = code = os.waitstatus_to_exitcode(status)
            log.seek(0)
            printed = log.read()
        text = out.read_text() if out.exists() else ""
        try:
            results = json.loads(text)
        except ValueError:
            results = None
        max_rss_mb = int(rss.read_text()) / 1024 if rss.exists() else usage.ru_maxrss / 1024
        return Graded(attack, code, killed, printed, results, text, self.scratch(attack),
                      max_rss_mb)

    def digest(self) -> dict[str, str]:
        """sha256 of every file of the copied grader package and exercises (compiled files too)."""
        return {str(path.relative_to(self.project)): hashlib.sha256(path.read_bytes()).hexdigest()
                for folder in ("grader", "exercises")
                for path in sorted((self.project / folder).rglob("*"))
                if path.is_file()}


@dataclass
class Outcome:
    arena: Arena
    control: Graded
    graded: dict[str, Graded]
    before: dict[str, str]
    after: dict[str, str]
    stray: list[str]  # processes that escaped to the test process


@pytest.fixture(scope="module")
def outcome():
    base = Path(tempfile.mkdtemp(prefix="vitgrade-hostile-"))
    try:
        arena = Arena(base)
        before = arena.digest()
        with adopting_orphans() as stray, ThreadPoolExecutor(PARALLEL) as pool:
            graded = {g.attack.stem: g for g in pool.map(arena.grade, [*RUN, CONTROL])}
        yield Outcome(arena, graded.pop(CONTROL.stem), graded, before, arena.digest(), stray)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def scores(graded: Graded) -> dict[str, tuple[float, float]]:
    """exercise id -> (score, max) from the Gradescope results."""
    out: dict[str, tuple[float, float]] = {}
    for test in graded.results["tests"]:
        score, most = out.get(test["tags"][0], (0.0, 0.0))
        out[test["tags"][0]] = (score + test["score"], most + test["max_score"])
    return out


def defined_functions(path: Path) -> set[str]:
    """The top-level functions a submission file defines itself."""
    import ast

    return {node.name for node in ast.parse(path.read_text()).body
            if isinstance(node, ast.FunctionDef)}


def feedback(graded: Graded) -> str:
    return graded.results.get("output", "") + "\n".join(test.get("output", "")
                                                        for test in graded.results["tests"])


def evidence(graded: Graded, prefix: str) -> list[str]:
    return sorted(path.name[len(prefix):] for path in graded.scratch.glob(f"{prefix}*"))


def attacks(*stems: str):
    chosen = [attack for attack in ATTACKS if not stems or attack.stem in stems]
    return pytest.mark.parametrize("attack", [
        pytest.param(a, id=a.stem,
                     marks=[pytest.mark.skipif(a.root_only and not AS_ROOT, reason="needs root")])
        for a in chosen
    ])


# -- every attack ---------------------------------------------------------------------------------


def test_the_control_submission_gets_full_marks(outcome):
    control = outcome.control
    assert control.code == 0, control.output
    assert control.results["score"] == control.results["max_score"] > 0


@attacks()
def test_an_attack_costs_only_the_exercises_that_use_its_function(outcome, attack):
    graded = outcome.graded[attack.stem]
    assert graded.results is not None, (f"no valid JSON results:\n{graded.results_text[:500]}\n"
                                        f"{graded.output[-2000:]}")
    got, best = scores(graded), scores(outcome.control)
    assert (set(got) == set(best)
            and graded.results["max_score"] == outcome.control.results["max_score"])
    kept_all = {exercise for exercise, (score, most) in got.items() if score == best[exercise][1]}
    assert set(got) >= SHIPPED, "SHIPPED names an exercise the catalogue no longer has"
    assert (SHIPPED - kept_all) == attack.loses, graded.output[-3000:]
    defined = defined_functions(HOSTILE / f"{attack.fixture or attack.stem}.py")
    uses = {e.id: set(e.uses) for e in load_specs(ROOT / "exercises")[0]}
    assert not {e for e in set(got) - SHIPPED - kept_all if not uses[e] & defined}, \
        graded.output[-3000:]
    assert graded.code == (1 if attack.loses else 0), graded.output[-3000:]


@attacks()
def test_an_attack_ends_in_bounded_time(outcome, attack):
    """The grader ended on its own (its deadlines end every call and the submission), with its
    results written; a hang would have been killed after HANG_SECONDS."""
    graded = outcome.graded[attack.stem]
    assert not graded.killed and graded.results is not None, graded.output[-2000:]


@attacks(*[attack.stem for attack in ATTACKS if attack.note])
def test_a_limit_or_refusal_says_so_in_the_students_message(outcome, attack):
    assert attack.note in feedback(outcome.graded[attack.stem])


@pytest.mark.parametrize("attack", RUN, ids=lambda attack: attack.stem)
def test_no_reply_makes_the_grading_process_large(outcome, attack):
    """Every reply is bounded when it is read (64 MB, each array decoded once): the grading
    process, and what it waited for (zygote, workers under --memory-mb 256), stays small."""
    assert outcome.graded[attack.stem].max_rss_mb < 500


def test_no_process_escapes_to_the_test_process(outcome):
    assert outcome.stray == []


def test_no_process_of_an_attack_outlives_its_grading(outcome):
    from grader.worker.sandbox import WORKER_UID_BASE

    table = processes()
    running = {pid for pid, (_parent, state, _uid) in table.items() if state != "Z"}
    identities = running_identities()
    for graded in outcome.graded.values():
        pids = set(evidence(graded, "pid-"))
        own_users = {int(uid) for uid in evidence(graded, "uid-") if int(uid) >= WORKER_UID_BASE}
        assert not pids & identities, graded.attack.stem
        assert not [pid for pid in running if table[pid][2] in own_users], graded.attack.stem
    assert not [pid for pid in running if outcome.arena.marker in cmdline(pid)]


def test_the_graders_files_are_unchanged(outcome):
    assert outcome.after == outcome.before


def test_all_attacks_are_graded_in_bounded_time(outcome):
    # ~30 s on two idle cores, most of it 27 gradings' own CPU: how long says more of the machine
    # than of the grader, which ended every grading on its own (the control's too)
    gradings = [outcome.control, *outcome.graded.values()]
    assert [graded.attack.stem for graded in gradings if graded.killed] == []
    assert outcome.control.results is not None


# -- what particular attacks prove ----------------------------------------------------------------


def test_an_escaped_daemon_was_started_and_killed(outcome):
    graded = outcome.graded["escape_daemon"]
    assert evidence(graded, "pid-"), "the daemon never started: the attack proves nothing"


def test_a_fork_bomb_is_capped_by_the_process_limit(outcome):
    graded = outcome.graded["fork_bomb"]
    workers = len(evidence(graded, "uid-"))
    assert 0 < len(evidence(graded, "pid-")) <= workers * 4


def test_expected_values_never_exist_in_the_worker(outcome):
    """The stack walker recorded each call's arguments and a digest of every array it could reach;
    the expected answer of no call (computed here, as the grader does) is among them."""
    from grader.reference import REFERENCE

    graded = outcome.graded["stack_walk"]
    # a call stopped at its time limit between writing its arguments and its digests (the walk
    # is slow on a busy machine) left no evidence to read: only whole records count
    calls = [call for call in sorted(graded.scratch.glob("call-*.npz"))
             if call.with_suffix(".digests").is_file()]
    assert calls, "the stack walker never ran"
    seen = set()
    for call in calls:
        seen |= set(call.with_suffix(".digests").read_text().split())
    assert not [line for line in seen if line.startswith("read /proc")]  # nothing of the grader's
    for call in calls:
        with np.load(call) as args:
            image, K, b, stride = args["image"], args["K"], args["b"], int(args["stride"])
        assert array_digest(image) in seen  # the search works
        try:
            expected = REFERENCE["conv_patch_embed"](image, K, b, stride)
        except ValueError:  # a case that must raise: there is no expected array
            continue
        assert array_digest(expected) not in seen


def gone(pids: set[str], seconds: float = 60) -> bool:
    """Whether none of `pids` (process_table.identity) runs (a zombie cannot write) within
    `seconds` (a deadline that only waits: the grader killed them all before it exited)."""
    deadline = time.monotonic() + seconds
    while True:
        if not pids & running_identities():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def array_digest(array: np.ndarray) -> str:
    """As stack_walk.py computes it: shape, dtype and bytes."""
    return hashlib.sha256(f"{array.shape} {array.dtype}".encode()
                          + np.ascontiguousarray(array).tobytes()).hexdigest()


@attacks("fake_results", "fake_results_shared")
def test_forged_results_never_replace_the_graders(outcome, attack):
    graded = outcome.graded[attack.stem]
    out = outcome.arena.base / attack.results / f"{attack.stem}.json"
    attempts = "\n".join(path.read_text() for path in graded.scratch.glob("attempt-*"))
    assert f" {out}" in attempts, "the attack never tried the results file"
    assert (graded.results["score"] == outcome.control.results["score"]
            and "forged" not in graded.results_text)
    # the forger left behind (if its fork was allowed) is gone: nothing writes the file any more
    forgers = set(evidence(graded, "pid-"))
    assert gone(forgers), forgers
    assert json.loads(out.read_text()) == graded.results
    if attack.results == "results" and AS_ROOT:
        assert f"wrote {out}" not in attempts and f"denied {out}" in attempts


@attacks("write_grader_files")
def test_the_worker_cannot_write_the_graders_files(outcome, attack):
    graded = outcome.graded[attack.stem]
    attempts = "\n".join(path.read_text() for path in graded.scratch.glob("attempt-*")).splitlines()
    assert attempts and all(line.startswith("denied ") for line in attempts), attempts
    # the copy it was graded with
    assert all(f" {outcome.arena.project}/" in line for line in attempts)


# what search_secrets.py would carry into its feedback if it could read them
COURSE_SECRET = "the course's own step, its answer: sin in the even columns"
COURSE_REFERENCE = f'''"""{COURSE_SECRET}."""
import numpy as np


def sincos_positions(n, d):
    angles = np.arange(n)[:, None] / 10000.0 ** (np.arange(0, d, 2) / d)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d)
'''
SECRET_LINES = {
    "a line of the reference": "Images are (H, W, C), channels last; a 2-D (H, W) image is one",
    "a hidden check's name": "the same checkpoint on other images",
}


def test_the_graders_secrets_never_reach_the_results(outcome):
    """As root the worker sees neither the reference nor the specs (nor anything in /tmp but its
    own folders), so what the search raises holds none of them. Not as root nothing is hidden,
    and --verbose says so: that is what is checked then (there, the student's own laptop, the
    files are the student's anyway)."""
    graded = outcome.graded["search_secrets"]
    searched = "\n".join(path.read_text() for path in graded.scratch.glob("searched-*"))
    assert "grader package" in searched, "the search never ran"
    if not AS_ROOT:
        assert "secrets are not hidden from student code: not running as root" in graded.output
        return
    project = outcome.arena.project
    note = next(line for line in graded.output.splitlines()
                if line.startswith("student code sees only a file system of its own"))
    assert f"{project}/grader/worker" in note, note  # the copy it was graded with
    assert f"{project}/grader/reference" not in note and f"{project}/exercises" not in note
    assert f" {project}/grader " in f" {searched} ", searched  # it looked where the reference is
    for what, line in {**SECRET_LINES, "the course's reference": COURSE_SECRET}.items():
        assert line not in graded.results_text and line not in graded.output, what


def test_without_hiding_the_search_carries_the_secrets(outcome, monkeypatch):
    """The attack works (so the test above can fail): graded with nothing hidden (no view of
    its own, VITGRADE_NO_NAMESPACES=1, and the copy readable by all), what it raises and prints
    holds every secret line."""
    from grader.worker import Limits, StudentWorker, Zygote

    monkeypatch.setenv("VITGRADE_NO_NAMESPACES", "1")
    submission = outcome.arena.submissions / "search_secrets.py"
    zygote = Zygote()
    try:
        with StudentWorker(submission, Limits(call_timeout=20, load_timeout=60),
                           zygote=zygote) as worker:
            got = worker.call("patch_dim", (16,))
    finally:
        zygote.close()
    assert got.status == "raised", got
    carried = got.error.message + got.stdout
    assert "Vision Transformers: the Lab 4 exercises" in carried
    for what, line in SECRET_LINES.items():
        assert line in carried, what


def course_files() -> dict[str, str]:
    """sha256 -> path of every .py, spec and .npz of this checkout (its tests too)."""
    folders = [ROOT / name for name in ("grader", "exercises", "solutions", "tests")]
    return {hashlib.sha256(path.read_bytes()).hexdigest(): str(path)
            for folder in folders for path in folder.rglob("*")
            if path.suffix in (".py", ".yaml", ".yml", ".npz") and path.is_file()}


@attacks("search_filesystem")
def test_a_hunt_over_the_whole_file_system_reads_nothing_of_the_course(outcome, attack):
    """As root, the worker's view holds nothing of the course: the hunt (pip's metadata,
    /proc/*/cwd and /proc/*/root, then all of /) read no file of this checkout or of the copy it
    was graded with, and its stub got no points (the attack's row above)."""
    graded = outcome.graded[attack.stem]
    reports = [json.loads(path.read_text()) for path in graded.scratch.glob("found-*")]
    assert reports and all(report["walked"] > 10 for report in reports), "the hunt never ran"
    course = course_files()
    course.update((hashlib.sha256(path.read_bytes()).hexdigest(), str(path))
                  for path in outcome.arena.project.rglob("*") if path.is_file())
    read = [(path, course[digest]) for report in reports for path, digest in report["found"]
            if digest in course]
    assert read == [], read[:10]
    assert not [path for report in reports for path, _ in report["found"]
                if path.startswith((str(ROOT), str(outcome.arena.project)))]


def test_the_hidden_message_of_a_limit_shows_no_input(outcome):
    text = feedback(outcome.graded["infinite_loop"])
    hidden = [line for line in text.splitlines() if "hidden case" in line]
    assert hidden and not [line for line in hidden if "patch_dim(" in line]
