"""Time on the grading host: a whole submission has a deadline, and slow code costs its limit once.

Each case is graded as an autograder would, by `python -m grader.cli grade SUB --json OUT`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import EXERCISES, SOLUTION


def grade(submission: Path, out: Path, *limits: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "grader.cli", "grade", str(submission), "--json", str(out),
               "--exercises", str(EXERCISES), *limits]
    return subprocess.run(command, capture_output=True, text=True, timeout=300,
                          cwd=submission.parent)


SLOW = '''
import functools, time
import correct_solution
from correct_solution import *  # noqa: F401,F403

def _slow(f):
    @functools.wraps(f)
    def answer(*args, **kwargs):
        time.sleep(0.2)  # at every call; its alarm (0.8 s of --call-timeout 1) is far off
        return f(*args, **kwargs)
    return answer

for _name in ("num_patches", "num_tokens", "patch_dim", "attention_scores", "patchify",
              "linear_patch_embed", "conv_patch_embed", "softmax", "layer_norm",
              "self_attention", "encoder_block", "vit_forward", "embed_image"):
    globals()[_name] = _slow(getattr(correct_solution, _name))
'''


def test_a_submission_slow_at_every_call_ends_at_its_deadline(tmp_path):
    shutil.copy(SOLUTION, tmp_path / "correct_solution.py")
    (tmp_path / "slow.py").write_text(SLOW)
    tmp_path.chmod(0o755)  # as root, the worker (a user of its own) imports correct_solution
    out = tmp_path / "results.json"
    done = grade(tmp_path / "slow.py", out, "--call-timeout", "1", "--submission-timeout", "10")
    results = json.loads(out.read_text())
    # some 350 calls x 0.2 s (70 s) without the deadline; what the grader measured of its own
    # run: 10 s and what is left to do once no call is made, three times over
    assert results["execution_time"] < 3 * 10, done.stdout[-2000:]
    outputs = [test.get("output", "") for test in results["tests"]]
    # as the time runs out, a call gets an eighth of what is left: slow functions stop in turn
    assert any("of the submission's time left" in output or "out of time" in output
               for output in outputs)
    assert 0 < results["score"] < sum(test["max_score"] for test in results["tests"])


LOOP_CELLS = [  # each run of a looping cell and of patch_dim adds a line to a file of LOG
    "from correct_solution import *  # noqa\nimport correct_solution\nimport pathlib\n"
    "def log(name):\n    with open(pathlib.Path({log!r}) / name, 'a') as f:\n"
    "        f.write('ran\\n')",
    "def patch_dim(P, C=3):\n    log('patch_dim')\n    while True:\n        pass",
    "log('cell 3')\nx = patch_dim(16, 3)  # a demo that never ends",
    "log('cell 4')\ny = patch_dim(8, 3)  # and another",
    "def num_tokens(H, W, P, cls_token=True):\n"
    "    return correct_solution.num_tokens(H, W, P, cls_token)",
]


def test_a_notebook_whose_cells_loop_costs_each_limit_once_and_the_rest_is_graded(
        tmp_path, catalogue):
    shutil.copy(SOLUTION, tmp_path / "correct_solution.py")
    tmp_path.chmod(0o755)  # as root, the worker (a user of its own) imports correct_solution
    log = tmp_path / "log"
    log.mkdir()
    log.chmod(0o777)  # and writes here
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": source.replace("{log!r}", repr(str(log)))} for source in LOOP_CELLS]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "work.ipynb").write_text(json.dumps(notebook))
    out = tmp_path / "results.json"
    done = grade(tmp_path / "work.ipynb", out, "--call-timeout", "1", "--load-timeout", "3")
    results = json.loads(out.read_text())
    lost = {test["name"] for test in results["tests"] if test["score"] < test["max_score"]}
    assert lost and all(name.startswith("flatten-length") for name in lost), lost
    # cells 3 and 4 are stopped once each (1 s), never run again when a worker is replaced; the
    # looping function is stopped (1 s) at most once per check that calls it, besides the cells
    runs = {path.name: len(path.read_text().splitlines()) for path in log.iterdir()}
    checks = sum("patch_dim" in check.names_read() for e in catalogue for check in e.checks)
    assert runs["cell 3"] == runs["cell 4"] == 1, (runs, done.stdout[-2000:])
    assert 2 <= runs["patch_dim"] <= 2 + checks, (runs, checks)
