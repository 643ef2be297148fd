"""grader/lazy_pattern.py: a pattern compiled on first use, the same as `re.compile`'s; the
patterns only a failure reads are not compiled by a grade with full marks."""
from __future__ import annotations

import re
import subprocess
import sys

from grader.lazy_pattern import LazyPattern

from conftest import ROOT

SOLUTION = ROOT / "solutions" / "vit_exercises.py"


def test_a_lazy_pattern_matches_as_the_compiled_one():
    lazy, compiled = LazyPattern(r"case (\d+) of (\d+)", re.I), re.compile(r"case (\d+) of (\d+)",
                                                                           re.I)
    text = "Case 2 of 5: got 3"
    assert lazy.search(text).groups() == compiled.search(text).groups() == ("2", "5")
    assert lazy.sub("#", text) == compiled.sub("#", text)
    assert LazyPattern(rb"\nUid:\s*(\d+)").search(b"x\nUid:\t7\n").group(1) == b"7"


def test_it_is_compiled_once_on_first_use():
    lazy = LazyPattern(r"a+")
    assert object.__getattribute__(lazy, "_compiled") is None
    assert lazy.fullmatch("aaa")
    first = object.__getattribute__(lazy, "_compiled")
    assert lazy.match("a") and object.__getattribute__(lazy, "_compiled") is first


PROBE = """
import sys
from grader.cli import main
main(["grade", sys.argv[1], "-q"])
from grader.checks import describe
from grader.checks.kinds import signatures
from grader.report import escape, feedback_level
lazy = [signatures.UNEXPECTED, signatures.MISSING, signatures.TOO_MANY, describe._CLAUSE_END,
        escape._MARKDOWN_PUNCTUATION, feedback_level.CASE]
print(sum(object.__getattribute__(p, "_compiled") is not None for p in lazy))
"""


def test_a_grade_with_full_marks_compiles_no_pattern_only_failures_read():
    done = subprocess.run([sys.executable, "-c", PROBE, str(SOLUTION)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == "0", done.stdout + done.stderr
