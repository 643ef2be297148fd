"""The lint rules in pyproject.toml ([tool.ruff]) hold on the project's own code.

They were kept by hand before (each helper ran ruff itself); the test extra installs ruff, so a
change that breaks them fails here, with ruff's own `file:line: rule` lines.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINTED = ["grader", "tests", "benchmarks", "examples"]


def test_the_project_code_passes_its_lint_rules():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *LINTED],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_lint_reports_a_rule_broken(tmp_path):
    """The check can fail: an unused import in a file under the project's settings is named."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
         str(ROOT / "pyproject.toml"), str(bad)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 1
    assert "F401" in result.stdout
