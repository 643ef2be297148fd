"""What run_autograder runs inside Gradescope's container, once per submission.

    python -m grader.lms.gradescope_autograder --root /autograder --exercises DIR [OPTIONS]

Finds the student's .py or .ipynb in ROOT/submission whatever they named it (the rules of
`grader.batch.discover.submission_file`), grades it through the driver (grader/driver.py) as
`vitgrade grade --gradescope --json ROOT/results/results.json` would (OPTIONS are its:
`--call-timeout 5`, `--memory-mb 2048`, ..., and its VITGRADE_* variables), and makes sure
ROOT/results/results.json exists whatever happens: a results file explaining the problem beats
Gradescope's "the autograder failed to produce output".
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.settings import GRADESCOPE_ROOT, OPTIONS, RESULTS_JSON


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.lms.gradescope_autograder")
    parser.add_argument("--root", default=GRADESCOPE_ROOT)
    for option in OPTIONS:
        if option.name not in ("json", "gradescope", "classroom", "prairielearn"):
            parser.add_argument(option.flag, **option.argparse_kwargs())
    parser.set_defaults(exercises=None)
    args = parser.parse_args(argv)
    if not args.exercises:
        parser.error("--exercises DIR is required")
    root = Path(args.root)
    results = root / RESULTS_JSON
    results.unlink(missing_ok=True)
    from grader.batch.discover import submission_file

    submitted = root / "submission"
    path = submission_file(submitted) if submitted.is_dir() else None
    if path is None:
        found = sorted(p.name for p in submitted.iterdir()) if submitted.is_dir() else []
        holds = f" (it holds: {', '.join(found[:10])})" if found else ""
        _explain(results, f"No .py or .ipynb file was found in your submission{holds}. "
                          "Upload your vit_exercises.py or your notebook.")
        return 0
    from grader.attempts import gradescope_attempt
    from grader.driver import Driver
    from grader.report.terminal import report_lines
    from grader.settings import resolve_settings

    attempt, due = gradescope_attempt(root)  # submission_metadata.json: for `opens:` steps
    given = {**vars(args), "student": str(path), "gradescope": True, "json": str(results),
             "student_id": args.student_id or gradescope_student_id(root),  # their variants
             "due": due}
    if attempt is not None and not args.attempt:
        given["attempt"] = attempt
    try:  # as `vitgrade grade` does
        driver = Driver(resolve_settings(given.get, Path.cwd()))
        try:
            outcome = driver.grade()
        finally:
            driver.close()
    # told to the instructor (stderr: a bad option too); the student gets a results file
    except Exception as exc:  # noqa: BLE001
        print(f"grading failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 2
    else:  # the table goes to the instructor's log (stdout)
        print("\n".join(report_lines(outcome.report)))
        for note in outcome.notes:
            print(note, file=sys.stderr)
        code = outcome.status
    if not results.is_file():
        _explain(results, "The autograder could not grade your submission (an error in the "
                          "grader, not in your code). Your instructor can see what happened.")
    return 0 if code in (0, 1) else code


def gradescope_student_id(root: Path) -> str | None:
    """The submitter's id (else email) in Gradescope's submission_metadata.json, if readable."""
    try:
        text = Path(root, "submission_metadata.json").read_text(encoding="utf-8")
        user = json.loads(text)["users"][0]
        found = user.get("id") or user.get("email")
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None
    return str(found) if found not in (None, "") else None


def _explain(results: Path, message: str) -> None:
    from grader.report.outputs import write_json_atomic

    write_json_atomic(results, {"score": 0, "output": message, "output_format": "text",
                                "stdout_visibility": "hidden", "tests": []})


if __name__ == "__main__":
    sys.exit(main())
