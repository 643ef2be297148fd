"""Time on the grading host: a whole submission has a deadline, and slow code costs its limit once.

Each case is graded as an autograder would, by `python -m grader.cli grade SUB --json OUT`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from conftest import EXERCISES, SOLUTION


def grade(submission: Path, out: Path, *limits: str) -> tuple[subprocess.CompletedProcess, float]:
    command = [sys.executable, "-m", "grader.cli", "grade", str(submission), "--json", str(out),
               "--exercises", str(EXERCISES), *limits]
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          cwd=submission.parent)
    return done, time.monotonic() - start


SLOW = '''
import functools, time
import correct_solution
from correct_solution import *  # noqa: F401,F403

def _slow(f):
    @functools.wraps(f)
    def answer(*args, **kwargs):
        time.sleep(0.5)  # under --call-timeout 1 (and its alarm, at 0.8 s), at every call
        return f(*args, **kwargs)
    return answer

for _name in ("num_patches", "num_tokens", "patch_dim", "attention_scores", "patchify",
              "linear_patch_embed", "conv_patch_embed", "softmax", "layer_norm",
              "self_attention", "encoder_block", "vit_forward", "embed_image"):
    globals()[_name] = _slow(getattr(correct_solution, _name))
'''


def test_a_submission_that_answers_just_before_each_timeout_ends_at_its_deadline(tmp_path):
    shutil.copy(SOLUTION, tmp_path / "correct_solution.py")
    (tmp_path / "slow.py").write_text(SLOW)
    tmp_path.chmod(0o755)  # as root, the worker (a user of its own) imports correct_solution
    out = tmp_path / "results.json"
    done, seconds = grade(tmp_path / "slow.py", out, "--call-timeout", "1",
                          "--submission-timeout", "10")
    assert seconds < 40, done.stdout[-2000:]  # some 350 calls x 0.5 s without the deadline
    results = json.loads(out.read_text())
    outputs = [test.get("output", "") for test in results["tests"]]
    # as the time runs out, a call gets an eighth of what is left: slow functions stop in turn
    assert any("of the submission's time left" in output or "out of time" in output
               for output in outputs)
    assert 0 < results["score"] < sum(test["max_score"] for test in results["tests"])


LOOP_CELLS = [
    "from correct_solution import *  # noqa\nimport correct_solution",
    "def patch_dim(P, C=3):\n    while True:\n        pass",
    "x = patch_dim(16, 3)  # a demo that never ends",
    "y = patch_dim(8, 3)  # and another",
    "def num_tokens(H, W, P, cls_token=True):\n"
    "    return correct_solution.num_tokens(H, W, P, cls_token)",
]


def test_a_notebook_whose_cells_loop_costs_each_limit_once_and_the_rest_is_graded(tmp_path):
    shutil.copy(SOLUTION, tmp_path / "correct_solution.py")
    tmp_path.chmod(0o755)  # as root, the worker (a user of its own) imports correct_solution
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": source} for source in LOOP_CELLS]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "work.ipynb").write_text(json.dumps(notebook))
    out = tmp_path / "results.json"
    done, seconds = grade(tmp_path / "work.ipynb", out, "--call-timeout", "1",
                          "--load-timeout", "3")
    # cells 3 and 4 are stopped once each (1 s), never again when a worker is replaced; the
    # looping function times out once per check that calls it (1 s each)
    assert seconds < 40, done.stdout[-2000:]
    results = json.loads(out.read_text())
    lost = {test["name"] for test in results["tests"] if test["score"] < test["max_score"]}
    assert lost and all(name.startswith("flatten-length") for name in lost), lost
    assert results["execution_time"] < 20
