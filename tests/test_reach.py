"""A check is graded again only around broken helpers its function's code can reach
(worker/reach.py, checks/dependencies.py): what the code reaches is read exactly where it can
be, said unknown wherever a function could be reached without being named, and unknown means
graded again as before, so no calling style loses the help it had."""
from __future__ import annotations

import textwrap

import pytest

from grader.checks import SubmissionGrading
from grader.checks.dependencies import Dependencies
from grader.worker import StudentWorker
from grader.worker.reach import reaches

from conftest import SOLUTION

STUDENT = '''
import functools
import numpy as np
from numpy import mean

EPS = 1e-5

def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)

def layer_norm(x, g, b, eps=EPS):
    return (x - mean(x, -1, keepdims=True)) * g + b

def attention(x):
    return softmax(x @ x.T)

def block(x, _ln=layer_norm):  # a default argument
    return attention(_ln(x, 1, 0))

TABLE = {"ln": layer_norm}

def from_table(x):
    return TABLE["ln"](x, 1, 0)

ln_small = functools.partial(layer_norm, eps=1e-6)

def through_partial(x):
    return ln_small(x, 1, 0)

def make():
    f = softmax
    def inner(x):  # a closure cell
        return f(x)
    return inner

closed = make()

def lambdas(x):
    return list(map(lambda row: softmax(row), x))
'''

UNKNOWABLE = '''
import functools

def softmax(x):
    return x

def by_globals(x):
    return globals()["softmax"](x)

def by_eval(x):
    return eval("softmax")(x)

def by_getattr(x):
    import sys
    return getattr(sys.modules[__name__], "softmax")(x)

class Model:
    def forward(self, x):
        return softmax(x)

model = Model()

def by_object(x):
    return model.forward(x)

@functools.lru_cache(maxsize=None)
def cached(n):
    return softmax(n)

def by_decorated(n):
    return cached(n)

def calls_unknowable(x):
    return by_object(x)
'''


def namespace(source: str) -> dict:
    found = {"__name__": "student"}
    exec(compile(textwrap.dedent(source), "/tmp/student.py", "exec"), found)  # noqa: S102
    return found


def test_what_a_function_reaches_is_read_from_its_code_defaults_closures_and_tables():
    found = reaches(namespace(STUDENT))
    assert found["softmax"] == [] and found["layer_norm"] == []
    assert found["attention"] == ["softmax"]
    assert found["block"] == ["attention", "layer_norm", "softmax"]  # through the default, on
    assert found["from_table"] == ["layer_norm"]
    assert found["through_partial"] == ["layer_norm"]
    assert found["closed"] == ["softmax"]
    assert found["lambdas"] == ["softmax"]


@pytest.mark.parametrize("name", ["by_globals", "by_eval", "by_getattr", "by_object",
                                  "by_decorated", "calls_unknowable"])
def test_a_function_that_could_reach_a_helper_without_naming_it_is_unknown(name):
    found = reaches(namespace(UNKNOWABLE))
    assert found["softmax"] == []
    assert name not in found


def test_a_check_is_graded_again_only_around_the_broken_helpers_its_function_reaches():
    calls = []

    def grade(exercise, check, stand_ins):
        calls.append((check.name, stand_ins))
        status = "passed" if check.name == "g" else "failed"
        return type("R", (), {"status": status, "passed": status == "passed",
                              "stand_ins": ()})(), frozenset(), ""

    def check(name):
        return type("C", (), {"name": name, "function": name, "regradable": True,
                              "names_read": lambda self: (name,)})()

    exercise = type("E", (), {"path": "x.yaml", "id": "x"})()
    helper, caller = check("helper"), check("caller")
    for reached, regraded in ((frozenset(), False), (frozenset({"helper"}), True),
                              (None, True)):
        calls.clear()
        graded = Dependencies([(exercise, helper), (exercise, caller)], grade,
                              lambda names, r=reached: r)
        graded.result(exercise, caller)
        assert (("caller", ("helper",)) in calls) is regraded, reached


def caller_through_globals(tmp_path):
    """The solution with `linear_patch_embed` calling `patchify` through globals() (unknown to
    reach.py) and `patchify` wrong: the caller must keep its points, as before."""
    text = SOLUTION.read_text()
    text = text.replace("return patchify(image, P) @ W_e + b_e",
                        'return globals()["patchify"](image, P) @ W_e + b_e', 1)
    assert "globals()" in text
    text += ("\n\ndef patchify(image, P):\n    H, W = image.shape[:2]\n"
             "    return image.reshape(-1, P * P * (image.size // (H * W)))\n")
    path = tmp_path / "vit_exercises.py"
    path.write_text(text)
    return path


def test_a_caller_whose_reach_is_unknown_is_still_graded_around_its_broken_helper(
        tmp_path, catalogue, zygote):
    path = caller_through_globals(tmp_path)
    with StudentWorker(path, zygote=zygote) as worker:
        assert "linear_patch_embed" not in worker.load().reaches
        assert worker.load().reaches["num_patches"] == frozenset()
        grading = SubmissionGrading(worker, catalogue=catalogue)
        results = {e.id: grading.exercise(e) for e in catalogue}
    assert results["patchify"].score < results["patchify"].max_score
    embed = results["linear-patch-embed"]
    assert embed.score == embed.max_score and "patchify" in embed.stand_ins
