"""Grade submissions on the visible checks and print what each check said, as JSON.

Run by tests/test_bundle.py twice, with the same arguments: by the student bundle's own Python
(a fresh venv where the bundle is installed alone: no grader/reference/) and by the project's,
with VITGRADE_NO_COMPILED=1 (every value computed by the reference). It imports only the
grader's public modules, so it runs on both.

    python bundle_driver.py EXERCISES_DIR SUBMISSION...   ->  {submission: {exercise: [check]}}

A SUBMISSION given as `PATH::ID,ID` is graded on those exercises only (in the catalogue's order).
"""
from __future__ import annotations

import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor


def main(folder: str, submissions: list[str]) -> None:
    from pathlib import Path

    from grader.checks.cases import CasePlans
    from grader.checks.catalogue import load_exercises
    from grader.session import GradingSession
    from grader.settings import GraderSettings
    from grader.worker import prestart_zygote

    exercises, errors = load_exercises(folder)
    assert not errors, errors
    zygote = prestart_zygote()

    # each thread keeps its stand-in oracles (the full grader's reference processes) for its
    # next submission, as a class run does (grader/driver.py), not one started per submission
    # and its case plans (each case's expectation decoded once), as a class run's students
    # share theirs: a thread's own, as a PlannedCase reads its compiled outputs on first need
    kept, every_kept = threading.local(), []

    def grade(argument: str) -> dict:
        if not hasattr(kept, "oracles"):
            kept.oracles, kept.plans = {}, CasePlans()
            every_kept.append(kept.oracles)
        path, _, only = argument.partition("::")
        chosen = [e for e in exercises if not only or e.id in only.split(",")]
        settings = GraderSettings(Path(path), Path(folder), include_hidden=False)
        results = GradingSession(settings, chosen, zygote=zygote, plans=kept.plans,
                                 oracles=kept.oracles).run().exercises
        return {r.id: [[c.name, c.score, c.points, c.status, c.message, c.hint, c.misconception,
                        list(c.stand_ins)] for c in r.checks] for r in results}

    with ThreadPoolExecutor(3) as pool:
        graded = dict(zip((s.partition("::")[0] for s in submissions),
                          pool.map(grade, submissions), strict=True))
    for oracle in (o for oracles in every_kept for o in oracles.values()):
        oracle.close()
    print(json.dumps(graded))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
