"""What a student's code prints is kept (its end) and shown with the check it failed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from conftest import EXERCISES, SOLUTION

PRINTS = '''
import correct_solution
from correct_solution import *  # noqa: F401,F403

print("loading my work")  # at import: shown only when loading had a problem
undefined_name  # a demo line that raises: a load problem

def patch_dim(P, C=3):
    print(f"debug: P={P} C={C}")
    print("x" * 5000)  # more than a report keeps: its end is kept
    print("the end of my debugging")
    return P * P  # channels forgotten
'''


def test_printed_output_is_shown_with_the_check_it_failed(tmp_path):
    shutil.copy(SOLUTION, tmp_path / "correct_solution.py")
    (tmp_path / "prints.py").write_text(PRINTS)
    tmp_path.chmod(0o755)  # as root, the worker (a user of its own) imports correct_solution
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", "prints.py", "--json",
                           str(out), "--exercises", str(EXERCISES)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "your code printed:" in done.stdout
    assert "the end of my debugging" in done.stdout and "x" * 2500 not in done.stdout
    assert "your code printed while loading:" in done.stdout and "loading my work" in done.stdout
    results = json.loads(out.read_text())
    flatten = [test for test in results["tests"] if test["name"].startswith("flatten-length")
               and "hidden" not in test["name"]]
    assert flatten and "the end of my debugging" in flatten[0]["output"]
    hidden = [test for test in results["tests"] if test["name"].startswith("flatten-length")
              and "hidden" in test["name"]]
    assert hidden and "debug: P=" not in hidden[0].get("output", "")  # it could show inputs
