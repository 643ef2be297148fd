"""Dependencies.explained_again: a failure explained once more at the end of its exercise keeps
its first verdict unless the new explanation names a mistake, and grades nothing again to find
out: an end-to-end check's hedge (helper_shows.py) is graded around each broken helper once."""
from __future__ import annotations

from types import SimpleNamespace

from grader.checks.dependencies import Dependencies
from grader.checks.kinds.memory import MEMORY, Memory
from grader.checks.results import FAILED, check_result


def _check(name: str, function: str, reads: tuple, regradable: bool):
    return SimpleNamespace(name=name, function=function, regradable=regradable, points=1.0,
                           hidden=False, visibility="visible", hint=None,
                           names_read=lambda: reads, names_tested=lambda: (function,))


def test_an_end_to_end_hedge_is_not_graded_again_when_no_mistake_is_named_again():
    """`pipeline` (an integration check, never graded again) fails while its helper `helper`
    fails its own check: its hedge asks once whether the helper's mistake can show there (a
    regrade with the helper's stand-in). Explained again at the end, its explanation names no
    mistake, so its first verdict stands, and that regrade is not made a second time."""
    checks = {"pipeline": _check("end to end", "pipeline", ("pipeline", "helper"), False),
              "helper": _check("helper's own", "helper", ("helper",), True)}
    exercises = {f: SimpleNamespace(path=f, id=f"{f}-exercise", checks=[checks[f]])
                 for f in checks}
    memory = Memory(worker=None)
    regrades: list = []
    planned = SimpleNamespace(expectation=lambda: (1.0, None))
    outcome = SimpleNamespace(status="raised")

    def grade(exercise, check, stand_ins, recorded_only=False):
        if stand_ins:
            regrades.append((check.function, stand_ins))
            return check_result(check, FAILED, "wrong"), None, frozenset(stand_ins), ""
        if check.function == "pipeline":
            memory.ran.setdefault("pipeline", {})[id(planned)] = (
                planned, outcome, lambda p, o: False)
        return check_result(check, FAILED, "wrong"), (lambda result: result), frozenset(), ""

    token = MEMORY.set(memory)
    try:
        dependencies = Dependencies([(exercises[f], checks[f]) for f in checks], grade)
        for f in checks:
            dependencies.first(exercises[f], checks[f])
        first = dependencies.result(exercises["pipeline"], checks["pipeline"])
        asked = [r for r in regrades if r == ("pipeline", ("helper",))]
        again = dependencies.explained_again(exercises["pipeline"], checks["pipeline"])
    finally:
        MEMORY.reset(token)
    assert "helper" in first.blames and asked == [("pipeline", ("helper",))]
    assert again == first
    assert [r for r in regrades if r == ("pipeline", ("helper",))] == asked
