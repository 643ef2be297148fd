"""A hint's code quotes said as the model solution's where the student did not write them (blind
rounds 52 and 53; "the lecture's" until round 54: the lecture has no code): report/quotes.py,
applied by the grading session to every hint before any report."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from grader.checks.results import FAILED, CheckResult, ExerciseResult
from grader.report import quotes
from grader.report.discarded import discarded, mistake_named
from grader.report.quotes import Source, attributed, submission_code
from grader.report.spelled import finished

from conftest import EXERCISES

# error-model sentences as the grader said them (blind round 53's b53_01, b53_05, b53_07)
SIBLING = ("In `num_patches`, `W // P` reads `H` where `W` belongs: `H // P`, a copy of its "
           "sibling term (right only when H == W).")
SOFTMAX_HEAD = ("In `vit_forward`, the result `linear(x[0], params['W_head'], params['b_head'])` "
                "goes through a softmax over its last axis before it is returned.")
LN1_FOR_LN2 = ("In `encoder_block`, `layer_norm(x, p['ln2_g'], p['ln2_b'], eps)` is given "
               "p['ln1_g'], p['ln1_b']: the parameters of the step before it.")
VARIANCE = ("In `layer_norm`, `np.var(x, keepdims=True, axis=-1)` is taken with ddof=1, where "
            "`np.var(x, axis=-1, keepdims=True)` is the biased one.")
EPS = ("In `layer_norm`, `eps` is added outside the square root, `sqrt(var) + eps`, instead of "
       "inside it, `np.sqrt(var + eps)`.")
AT_STEP = ("In `self_attention` (at the model solution's step `attention(q, k, v, mask)`), the "
           "scores are divided by sqrt(d).")


def source(text: str) -> Source:
    return Source([text])


def test_a_quote_the_source_holds_is_unchanged():
    code = ("def num_patches(H, W, P):\n"
            "    return (H // P) * (H // P)  # W // P in a comment is no code\n"
            "def other(W, P):\n    return W // P\n")
    assert attributed(SIBLING, source(code.replace("(H // P) * (H // P)",
                                                   "(H // P) * (W // P)"))) == SIBLING
    held = "def vit_forward(x, params):\n    return softmax(linear(x[0], params[\"W_head\"],\n" \
           "                          params[\"b_head\"]))\n"  # other quotes, other lines
    assert attributed(SOFTMAX_HEAD, source(held)) == SOFTMAX_HEAD


def test_a_quote_the_source_lacks_is_said_as_the_model_solution_s():
    code = "def num_patches(img_size, patch_size):\n    return (img_size // patch_size) ** 2\n"
    assert attributed(SIBLING, source(code)) == SIBLING.replace(
        "`W // P` reads", "the model solution's `W // P` reads")  # `H // P`: after the colon
    # looked for in the function the sentence names: another function's `W // P` is not it
    other = code + "def patchify(image, P):\n    return image.reshape(H // P, P, W // P, P, C)\n"
    assert "the model solution's `W // P`" in attributed(SIBLING, source(other))
    student = ("def encoder_block(x, p, heads):\n"
               "    norm = lambda t: layer_norm(t, p[\"ln1_g\"], p[\"ln1_b\"])\n"
               "    x = x + self_attention(norm(x), p, heads)\n    return x + mlp(norm(x), p)\n")
    assert attributed(LN1_FOR_LN2, source(student)) == LN1_FOR_LN2.replace(
        "`layer_norm(", "the model solution's `layer_norm(")


def test_a_quote_that_only_names_its_noun_again_is_dropped():
    student = ("def vit_forward(image, params):\n    logits = x[0] @ params['W_head'] + "
               "params['b_head']\n    return softmax(logits)\n")
    assert attributed(SOFTMAX_HEAD, source(student)) == (
        "In `vit_forward`, the result goes through a softmax over its last axis before it is "
        "returned.")


def test_a_quote_after_a_possessive_noun_is_dropped_too():
    """Blind round 54's b54_06: "the linear map's output the model solution's `linear(...)` goes
    through ReLU" read as two nouns in a row; the quote only names the output again."""
    relu = ("In `vit_forward`, the linear map's output `linear(x[0], params['W_head'], "
            "params['b_head'])` goes through ReLU before it is returned.")
    student = ("def vit_forward(image, params):\n    return np.maximum(x[0] @ params['W_head'] + "
               "params['b_head'], 0)\n")
    assert attributed(relu, source(student)) == (
        "In `vit_forward`, the linear map's output goes through ReLU before it is returned.")


def test_keyword_arguments_are_compared_in_any_order():
    mine = "def layer_norm(x, g, b, eps=1e-6):\n    v = np.var(x, axis=-1, keepdims=True, ddof=1)\n"
    assert attributed(VARIANCE, source(mine.replace(", ddof=1", ""))) == VARIANCE
    # the model solution writes it axis first too: lacking here, it is the model solution's
    assert attributed(VARIANCE, source(mine.replace("np.var(x, axis=-1", "x.var(axis=-1"))) == (
        VARIANCE.replace("`np.var(x, keepdims", "the model solution's `np.var(x, keepdims"))


def test_the_right_code_an_example_and_the_model_solution_s_step_are_unchanged():
    nothing = source("def layer_norm(x, g, b):\n    return x\n"
                     "def self_attention(x, p, heads):\n    return x\n")
    for hint in (EPS, AT_STEP, "In `layer_norm`, your values are the model solution's with "
                 "`np.mean(x, keepdims=True)` in place of `np.mean(x, axis=-1, keepdims=True)`.",
                 "In `layer_norm`, your values are the lecture's with `x.mean(keepdims=True)`.",
                 "Make the output float (`x = x - m`, not `x -= m`).",
                 "In `layer_norm`, the shape of `x` is read as two sizes, `T, d = x.shape`."):
        assert attributed(hint, nothing) == hint


def test_a_quote_cut_short_is_looked_for_up_to_its_cut():
    hint = ("In `encoder_block`, the residual of `x + self_attention(layer_norm(x, p['ln1_g'], "
            "p['ln1_b'], eps), p, h...` adds back the step's output.")
    written = ("def encoder_block(x, p, heads, eps=1e-6):\n    x = x + self_attention(layer_norm("
               "x, p['ln1_g'], p['ln1_b'], eps), p, heads)\n    return x\n")
    assert attributed(hint, source(written)) == hint
    assert attributed(hint, source("def encoder_block(x, p, heads):\n    return x\n")) == (
        hint.replace("of `x +", "of the model solution's `x +"))


def test_a_notebook_s_code_cells_are_read_not_its_outputs(tmp_path):
    def notebook(cell_source: str, output: str) -> dict:
        return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["the result `W // P`"]},
            {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": [cell_source],
             "outputs": [{"output_type": "stream", "name": "stdout", "text": [output]}]}]}

    path = tmp_path / "work.ipynb"
    path.write_text(json.dumps(notebook("def num_patches(H, W, P):\n    return (H // P) * (W // P)",
                                        "")))
    assert attributed(SIBLING, submission_code(path)) == SIBLING
    path.write_text(json.dumps(notebook("def num_patches(H, W, P):\n    return (H // P) ** 2",
                                        "W // P")))
    assert "the model solution's `W // P`" in attributed(SIBLING, submission_code(path))


def test_a_source_that_cannot_be_read_leaves_the_hint_as_it_is(tmp_path):
    real = tmp_path / "real.py"
    real.write_text("def num_patches(H, W, P):\n    return (H // P) ** 2\n")
    link = tmp_path / "link.py"
    os.symlink(real, link)
    huge = tmp_path / "huge.py"
    huge.write_bytes(b"x = 1\n" * (quotes.MOST_CODE // 6 + 1))
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    for path in (link, huge, broken, tmp_path / "missing.py", tmp_path, None):
        assert submission_code(path) is None
        assert submission_code(real, most=10) is None  # more than the worker reads
        assert attributed(SIBLING, submission_code(path)) == SIBLING
    odd = tmp_path / "odd.py"  # not UTF-8, a NUL, unbalanced brackets: read, never a crash
    odd.write_bytes(b"\xff\xfe def num_patches(H, W, P):\x00 return ((H // P\n'''")
    assert "the model solution's" in attributed(SIBLING, submission_code(odd))
    deep = tmp_path / "deep.py"  # no parse, brackets too deep to sort, strings left open
    deep.write_text("def num_patches(H, W, P):\n    return " + "(" * 5000 + "H // P"
                    + ")" * 5000 + "'''" * 1000 + '"')
    assert "the model solution's" in attributed(SIBLING, submission_code(deep))


def test_the_session_finishes_every_hint_before_any_report(tmp_path):
    from pathlib import Path

    from grader.session import GradingSession
    from grader.settings import GraderSettings

    student = tmp_path / "mine.py"
    student.write_text("def num_patches(img, p):\n    return (img // p) ** 2\n")
    session = GradingSession(GraderSettings(student, Path(__file__).parents[1] / "exercises"), [])
    failed = CheckResult("random sizes", 1.0, 0.0, FAILED, hint=SIBLING, hint_kind="mistake")
    result = session.quoted(ExerciseResult("patch-count", "Count", "", (failed,)))
    assert result.checks[0].hint.startswith(
        "In `num_patches`, the model solution's `W // P` reads")


@pytest.mark.parametrize("quote, fragment", [("W // P", True), ("p['ln1_g']", True),
                                             ("np.var", False), ("x", False), ("//", False),
                                             ("P x P", False)])
def test_only_code_is_a_fragment(quote, fragment):
    assert quotes.is_fragment(quote) is fragment


def test_a_quote_in_a_helper_the_function_calls_is_the_student_s():
    student = ("def head(x, params):\n    return linear(x[0], params['W_head'], "
               "params['b_head'])\n\ndef vit_forward(image, params):\n"
               "    return softmax(head(x, params))\n")
    assert attributed(SOFTMAX_HEAD, source(student)) == SOFTMAX_HEAD
    alone = student.replace("head(x, params))", "x[0] @ params['W_head'])")
    assert attributed(SOFTMAX_HEAD, source(alone)) != SOFTMAX_HEAD
    # a function of the student API has checks of its own: its code is another place
    sibling = ("def num_patches(H, W, P):\n    return (H // P) * (W // P)\n"
               "def patchify(image, P):\n    num_patches(*image.shape[:2], P)\n"
               "    h = w = image.shape[1] // P\n")
    hint = SIBLING.replace("num_patches", "patchify")
    assert attributed(hint, Source([sibling])) == hint
    api = frozenset({"num_patches", "patchify"})
    assert "the model solution's `W // P`" in attributed(hint, Source([sibling], api))


# blind round 56 (b56_08, b56_11): a step of the grader's internal reference, said as it is
EMBED_STEP = ("In `linear_patch_embed` (at the model solution's step `linear(patchify(image, P), "
              "W_e, b_e)`), `W_e` is used transposed, `x @ W_e.T`.")


def test_a_model_solution_s_step_is_said_as_the_student_s_own_line():
    from grader.report.steps import placed

    student = ("def linear_patch_embed(image, W_e, b_e, P):\n    x = patchify(image, P)\n"
               "    return x @ W_e.T + b_e\n")  # the step's argument bound first, then used
    assert placed(EMBED_STEP, source(student)) == (
        "In `linear_patch_embed` (at your line `return x @ W_e.T + b_e`), `W_e` is used "
        "transposed, `x @ W_e.T`.")
    inline = ("def linear_patch_embed(image, W_e, b_e, P):\n"
              "    out = patchify(image, P) @ W_e.T\n    return out + b_e\n")
    assert "(at your line `out = patchify(image, P) @ W_e.T`)" not in placed(
        EMBED_STEP, source(inline))  # the step over two lines
    assert "(where `W_e` multiplies its input and `b_e` is added)" in placed(
        EMBED_STEP, source(inline))


def test_a_step_no_line_holds_is_said_in_words_never_as_a_helper_s_call():
    from grader.report.steps import placed

    student = ("def self_attention(x, p, heads, causal=False):\n"
               "    queries = x @ p['Wq']\n    keys = x @ p['Wk']\n"
               "    return softmax(queries @ keys.T / keys.shape[-1] ** 0.5) @ x\n")
    said = placed(AT_STEP, source(student))
    assert "model solution's step" not in said and "attention(" not in said
    assert said.startswith("In `self_attention` (where each head's attention weights are ")
    own = student + "def attention(q, k, v, mask=None):\n    return q\n"
    assert "in its call of your" not in placed(AT_STEP, source(own))  # defined, never called
    calling = own.replace("return softmax(", "return attention(queries, keys, x) + softmax(")
    assert placed(AT_STEP, source(calling)).startswith(
        "In `self_attention` (in its call of your `attention`), the scores")
    unknown = AT_STEP.replace("attention(q, k, v, mask)", "scores_of(q, k)")
    assert placed(unknown, source(student)) == "In `self_attention`, the scores are divided " \
                                                "by sqrt(d)."
    assert placed(AT_STEP, None) == AT_STEP  # no source: as it is


@pytest.mark.parametrize("name, aside", [
    ("op:norm_axes:layer_norm:over-sample", "(as torch's `F.layer_norm(x, x.shape[1:])` does)"),
    ("op:output_activation:vit_forward:result-through-softmax",
     "(as a head built with activation='softmax' applies one)"),
    ("op:qkv_bias_free:self_attention:qkv-without-bias",
     "(as a projection built with bias=False does: nanoGPT's")])
def test_another_library_s_spelling_reads_as_an_example_not_as_the_student_s(name, aside):
    """Blind round 56 (b56_05): "`axis=...` (`F.layer_norm(x, x.shape[1:])`)" to a student who
    reshaped, "(a head built with activation='softmax')" to one who called softmax(x): an aside
    is said as an example ("as torch's ... does"), never as a quote of the student's code."""
    from grader.reference import REFERENCE
    from grader.reference import error_model as em

    said = em.sentence(REFERENCE[name.split(":")[2]], name)
    assert aside in said
    student = "def layer_norm(x, g, b, eps=1e-6):\n    y = x.reshape((x.shape[0], -1))\n"
    assert "the model solution's `F.layer_norm" not in attributed(said, source(student))


# A step's result thrown away (report/discarded.py; blind round 56's b56_06, PredRNN's
# reshape_patch): the error model's "transpose removed" said as the student's own line.
REMOVED = "op:transpose:patchify:grid.transpose-removed"
THROWN_AWAY = '''import numpy as np


def patchify(image, P):
    H, W, C = image.shape
    grid = image.reshape(H // P, P, W // P, P, C)
    {step}
    return grid.reshape(-1, P * P * C)
'''


def _patchify_failed(misconception: str, text: str) -> ExerciseResult:
    check = CheckResult("raster order", 2, 0, FAILED, hint="image.reshape(N, P*P*C) ...",
                        misconception=misconception, hint_kind="mistake")
    return finished(ExerciseResult("patchify", "Patchify", "", (check,), 0.0), source(text))


@pytest.mark.parametrize("step, said", [
    ("grid.swapaxes(1, 2)", None),  # another method than the one the mistake removed
    ("grid.transpose(0, 2, 1, 3, 4)", "`grid.transpose(0, 2, 1, 3, 4)` on line 7"),
    ("np.transpose(grid, (0, 2, 1, 3, 4))", "(`grid = np.transpose(grid, ...)`)"),
    ("tiles = grid.transpose(0, 2, 1, 3, 4)", None),  # assigned: not thrown away
    ("print(grid.transpose(0, 2, 1, 3, 4))", None),  # used
])
def test_a_missing_step_the_student_wrote_and_threw_away_is_said_as_that_line(step, said):
    text = THROWN_AWAY.format(step=step)
    hint = discarded(REMOVED, source(text))
    if said is None:
        assert hint is None
        return
    assert hint.startswith("In `patchify`, `") and said in hint
    assert "returns a new array that is never used" in hint
    assert "assign it (`grid = " in hint
    # a known-wrong variant that is an instance of the same mistake, through the session's step
    check = _patchify_failed("patchify_bare_reshape", text).checks[0]
    assert check.hint == hint


def test_a_thrown_away_step_is_not_said_for_another_mistake_nor_twice():
    text = THROWN_AWAY.format(step="grid.transpose(0, 2, 1, 3, 4)")
    assert discarded("patchify_grid_transposed", source(text)) is None  # axes swapped: present
    assert discarded(None, source(text)) is None
    twice = THROWN_AWAY.format(step="grid.transpose(0, 2, 1, 3, 4)\n    grid.transpose(1, 0)")
    assert discarded(REMOVED, source(twice)) is None  # which one is meant is not known
    check = _patchify_failed("patchify_grid_transposed", text).checks[0]
    assert check.hint == "image.reshape(N, P*P*C) ..."


# like the thrown-away step, but its value is used: a 2-D transpose returned (the identity here,
# so the function is the bare reshape that patchify_bare_reshape names, yet no line threw it away)
USED = '''import numpy as np


def patchify(image, P):
    H, W, C = image.shape
    flat = image.reshape((H // P) * (W // P), P * P * C)
    {used}
'''


@pytest.mark.parametrize("used", [
    "return flat.transpose(0, 1)", "return np.transpose(flat, (0, 1))",
    "return flat.transpose(1, 0).transpose(1, 0)", "out = flat.transpose(0, 1)\n    return out",
    "return [flat.transpose(0, 1)][0]"])
def test_a_step_whose_result_is_used_is_never_said_thrown_away(used):
    text = USED.format(used=used)
    assert discarded(REMOVED, source(text)) is None
    spec = EXERCISES / "patchify.yaml"  # the compiled data says what the variant is: the same
    assert discarded("patchify_bare_reshape", source(text), spec) is None
    check = _patchify_failed("patchify_bare_reshape", text).checks[0]
    assert check.hint == "image.reshape(N, P*P*C) ..."  # the check's own hint


def test_which_mistake_a_variant_is_comes_from_the_compiled_data_as_in_the_bundle():
    """The student bundle has no grader/reference: the error model's mistake a known-wrong
    variant is comes from the compiled data there, and in the full grader too (both say the
    same); from the reference only where nothing is compiled (VITGRADE_NO_COMPILED)."""
    spec = str(EXERCISES / "patchify.yaml")
    script = ("import sys\nfrom grader.report.discarded import mistake_named\n"
              f"for like in ('patchify_bare_reshape', 'patchify_channel_first', 'op:x:y:z'):\n"
              f"    print(mistake_named(like, {spec!r}))\n"
              "print(any(m.startswith('grader.reference') for m in sys.modules))\n")
    for disabled, imported in (("0", "False"), ("1", "True")):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "VITGRADE_NO_COMPILED": disabled})
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [REMOVED, "None", "op:x:y:z", imported]
    assert mistake_named("linear_embed_bare_reshape", EXERCISES / "linear-patch-embed.yaml") \
        == "op:transpose:linear_patch_embed/patchify:grid.transpose-removed"
    assert mistake_named("patchify_bare_reshape", None) == REMOVED  # no spec: the reference


PATCHIFY_HEAD = """import numpy as np


def patchify(image, P):
    image = np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image
    H, W, C = image.shape
"""


@pytest.mark.parametrize("body, thrown_away", [
    ("    grid = image.reshape(H // P, P, W // P, P, C)\n    grid.transpose(0, 2, 1, 3, 4)\n"
     "    return grid.reshape(-1, P * P * C)\n", True),
    ("    flat = image.reshape((H // P) * (W // P), P * P * C)\n"
     "    return flat.transpose(0, 1)\n", False)])
def test_the_session_says_the_line_that_threw_the_step_away_and_no_other(
        tmp_path, catalogue, zygote, body, thrown_away):
    from grader.session import GradingSession
    from grader.settings import GraderSettings

    student = tmp_path / "mine.py"
    student.write_text(PATCHIFY_HEAD + body)
    exercise = next(e for e in catalogue if e.id == "patchify")
    session = GradingSession(GraderSettings(student, EXERCISES), catalogue, zygote=zygote)
    result = session.run([exercise]).exercises[0]
    named = [c for c in result.checks if c.misconception == "patchify_bare_reshape"]
    assert named  # the same mistake named either way
    said = ("In `patchify`, `grid.transpose(0, 2, 1, 3, 4)` on line 9 returns a new array that "
            "is never used, so the code after it runs as if it were not there: assign it "
            "(`grid = grid.transpose(...)`).")
    assert all((c.hint == said) == thrown_away for c in named), [c.hint for c in named]
    assert not any("never used" in (c.hint or "") for c in result.checks if c not in named)


RANGED = ("In `layer_norm`, eps is a value below about 1e-09 (0 and every power of ten up to "
          "1e-10 give these outputs, 1e-09 does not: they cannot tell which); the student "
          "API's is 1e-06.")


def test_a_small_constants_range_is_said_as_the_students_own_number_where_it_lies_in_it():
    """Blind round 57's b57_09 (`def layer_norm(x, gamma, beta, eps=1e-10)`) was told "eps is
    1e-12": the error model now says the range the calls allow (error_model/constants.py), and
    the report the student's own number in it (report/constants.py), never another one."""
    from grader.report.constants import theirs

    def told(text: str, renamed=None) -> str:
        return theirs(RANGED, source(text), renamed)

    assert told("def layer_norm(x, gamma, beta, eps=1e-10):\n    return x\n") == (
        "In `layer_norm`, eps is 1e-10 (`eps=1e-10` in your code); the student API's is 1e-06.")
    assert told("def layer_norm(x, g, b):\n    eps = 1e-12\n    return x\n").startswith(
        "In `layer_norm`, eps is 1e-12 (`eps = 1e-12` in your code);")
    assert told("def layer_norm(x, g, b, epsilon=0.0):\n    return x\n",
                lambda f: {"eps": "epsilon"}).startswith(
        "In `layer_norm`, eps is 0 (`epsilon=0.0` in your code);")
    # a number outside the range, two numbers, or none: the range stays as the calls tell it
    for text in ("def layer_norm(x, g, b, eps=1e-6):\n    return x\n",
                 "def layer_norm(x, g, b, eps=1e-10):\n    eps = 1e-12\n    return x\n",
                 "def layer_norm(x, g, b, eps=None):\n    return x\n",
                 "def other(x, eps=1e-10):\n    return x\n"):
        assert told(text) == RANGED, text
    assert theirs(RANGED, None) == RANGED


UNPACKED = ("In `layer_norm`, the shape of `x` is read as two sizes, `T, d = x.shape`: code "
            "written for one (T, d) sequence, so an input with another number of axes raises.")


def test_a_statement_the_student_wrote_with_other_names_is_quoted_as_theirs():
    """Blind round 57's b57_15 was told `T, d = x.shape` (the error model's rewrite, in the
    model solution's names) where its line 101 is `N, C = src.shape`: the student's own
    statement of that shape is quoted (report/spelled.py); one written twice, a different
    one, or a quote given as the right code is left as it is."""
    from grader.report.spelled import spelled

    theirs = ("def layer_norm(src, gamma, beta, eps=1e-6):\n    N, C = src.shape\n"
              "    return src\n")
    assert spelled(UNPACKED, source(theirs)) == UNPACKED.replace("T, d = x.shape",
                                                                 "N, C = src.shape")
    for text in ("def layer_norm(x, g, b):\n    N, C = x.shape\n    A, B = x.shape\n",
                 "def layer_norm(x, g, b):\n    N, C = x.size\n    return x\n",
                 "def layer_norm(x, g, b):\n    N = x.shape\n    return x\n"):
        assert spelled(UNPACKED, source(text)) == UNPACKED, text
    contrast = "In `layer_norm`, the width is read where `T, d = x.shape` belongs."
    assert "`T, d = x.shape`" in spelled(contrast, source(theirs))


def test_a_rewrite_s_code_is_quoted_only_where_the_student_wrote_it():
    """Blind round 60's b60_01: "`W // P` reads `H` where `W` belongs: `H // P`, a copy of its
    sibling term", of code that counts `output_size ** 2` (no `H // P` in it). What the student's
    code computes, in the model solution's terms (`quotes.EFFECT` before it), is quoted as theirs
    where their function holds it, else said without the quote; another function's does not
    count, and with no source the words stay (an effect, not their code)."""
    from grader.reference import REFERENCE
    from grader.reference import error_model as em

    said = em.sentence(REFERENCE["num_patches"], next(
        e.name for e in em.model(REFERENCE["num_patches"])[1] if e.detail == "W-as-H"))
    assert f"belongs: {quotes.EFFECT}`H // P`, a copy of its sibling term" in said, said
    ported = ("def num_patches(H, W, P):\n    image_size, patch_size = H, P\n"
              "    output_size = int((image_size - patch_size) / patch_size + 1)\n"
              "    return output_size ** 2\n"
              "def patchify(image, P):\n    H, W, C = image.shape\n    return H // P\n")
    told = attributed(said, source(ported))
    assert "`H // P`" not in told and quotes.EFFECT not in told, told
    assert told.endswith("`H` where `W` belongs: a copy of its sibling term (right only when "
                         "H == W)."), told
    d2l = "def num_patches(H, W, P):\n    return (H // P) * (H // P)\n"
    assert attributed(said, source(d2l)).endswith(
        "belongs: `H // P`, a copy of its sibling term (right only when H == W)."), \
        attributed(said, source(d2l))
    assert attributed(said, None) == said


def test_a_cast_is_said_as_the_student_s_line_that_makes_it():
    """Blind round 60's b60_06: the float16 steps' sentence quotes the cast as the student's
    line that makes it, `qkv = x.astype(np.float16) @ qkv_weight + qkv_bias`, where one
    statement of the function holds it; else the cast as the sentence gives it."""
    from grader.reference import REFERENCE
    from grader.reference import error_model as em
    from grader.report.steps import placed

    said = em.sentence(REFERENCE["self_attention"],
                       "op:steps_in:self_attention:steps-1-2-3-on-x-as-float16")
    assert f"{quotes.CAST}`x.astype(np.float16)`" in said, said
    eva = ("def self_attention(x, p, heads, causal=False):\n"
           "    w = np.concatenate([p['Wq'], p['Wk'], p['Wv']], axis=1).astype(np.float16)\n"
           "    qkv = x.astype(np.float16) @ w\n    return qkv @ p['Wo']\n")
    assert (f"{quotes.CAST}at your line `qkv = x.astype(np.float16) @ w`, the weights"
            in placed(said, source(eva))), placed(said, source(eva))
    twice = eva.replace("@ w\n", "@ w\n    k = x.astype(np.float16) @ w\n")
    other = eva.replace("x.astype(np.float16)", "np.float16(x)")
    for code in (twice, other):
        assert placed(said, source(code)) == said
    assert placed(said, None) == said


def test_a_statement_in_the_quotes_own_names_reordered_is_not_quoted_as_theirs():
    """Blind round 59's b59_12 reads an (H, W, C) image as `w, h, nc = x.shape`: the sentence's
    `W, H, C = image.shape` is said as that line. A student who wrote the sides in their right
    order, `H, W, C = x.shape`, `h, w, c = x.shape` or `height, width, C = x.shape`, holds
    other code in the same names: that line is never quoted as the one that reads the height as
    the width."""
    from grader.report.spelled import spelled

    told = ("In `conv_patch_embed`, `W, H, C = image.shape` reads the image's height as its "
            "width, so the output grid is sized the other way round.")
    for line, quoted in (("w, h, nc = x.shape", True), ("W, H, C = img.shape", True),
                         ("H, W, C = x.shape", False), ("h, w, c = x.shape", False),
                         ("height, width, C = x.shape", False), ("rows, cols, c = x.shape", False),
                         ("img_w, img_h, c = x.shape", True)):
        text = f"def conv_patch_embed(x, K, b, stride):\n    {line}\n    return x\n"
        assert (f"`{line}`" in spelled(told, source(text))) is quoted, line


def test_an_axis_order_is_quoted_only_where_the_student_wrote_that_transpose():
    """Blind round 63's b63_07: "`grid.transpose(0, 2, 4, 3, 1)` puts axes 4 and 1 in each other's
    place" of code that flattens each patch with `reshape(-1, order="F")` in a helper and has no
    such transpose. The transpose is what the code computes, in the model solution's terms
    (`quotes.EFFECT`): quoted only where the student's function holds it."""
    from grader.reference import REFERENCE
    from grader.reference import error_model as em

    name = next(e.name for e in em.model(REFERENCE["patchify"])[1]
                if e.detail == "transpose-0-2-4-3-1")
    said = em.sentence(REFERENCE["patchify"], name)
    assert f"{quotes.EFFECT}`grid.transpose(0, 2, 4, 3, 1)`, axes 4 and 1" in said, said
    julia = ("def img2patch(patch):\n    return patch.reshape(-1, order='F')\n"
             "def patchify(image, P):\n    H, W, C = image.shape\n"
             "    return np.stack([img2patch(image[i:i + P, j:j + P]) for i in range(0, H, P)\n"
             "                     for j in range(0, W, P)])\n")
    told = attributed(said, source(julia))
    assert "grid.transpose(0, 2, 4, 3, 1)" not in told and quotes.EFFECT not in told, told
    assert told.startswith("In `patchify`, axes 4 and 1 are in each other's place"), told
    written = ("def patchify(image, P):\n    H, W, C = image.shape\n"
               "    grid = image.reshape(H // P, P, W // P, P, C)\n"
               "    return grid.transpose(0, 2, 4, 3, 1).reshape(-1, P * P * C)\n")
    kept = attributed(said, source(written))
    assert kept.startswith("In `patchify`, `grid.transpose(0, 2, 4, 3, 1)`, axes 4 and 1"), kept


def test_a_long_line_is_quoted_cut_where_no_reference_is_installed():
    """The student bundle has no grader/reference: a hint that quotes a student's line longer
    than steps.SHOWN cuts it there too (the cut lived in the error model, None in the bundle)."""
    script = ("import sys\nsys.modules['grader.reference'] = None  # as in the bundle\n"
              "from grader.report.steps import statement\n"
              "text = 'def f(x):\\n    y = ' + ' + '.join(f'x[{i}]' for i in range(40)) + '\\n'\n"
              "print(statement(text, ['x[0]']))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("y = x[0] + x[1]") and done.stdout.strip().endswith("...")


# error-model sentences whose quotes are all the model solution's, as the buggy fixtures
# ibot_patchify_w_h_swapped_mean_pooled_norm, arnekugel_gpt_block_no_pre_ln_logits_averaged_over_
# tokens and gpt_cpp_attention_always_causal_* were told them (issue 38: "the model solution's"
# three times in one sentence)
SIDES = ("In `patchify`, `image.reshape(H // P, P, W // P, P, C)` is given `H // P` and `W // P` "
         "the other way round, `image.reshape(W // P, P, H // P, P, C)` (H for W: the same only "
         "where they are equal).")
NO_LN1 = ("In `encoder_block`, the LayerNorm (with `p['ln1_g']` and `p['ln1_b']`) is left out: "
          "its input goes on as it is.")
ALWAYS = ("In `self_attention`, `causal_mask(x.shape[-2]) if causal else None` is always "
          "`causal_mask(x.shape[-2])`: whatever `causal` says, the code takes that branch.")
OWN_SPELLING = ("def patchify(img, p):\n    h, w, c = img.shape\n"
                "    grid = img.reshape(w // p, p, h // p, p, c)\n"
                "    return grid.transpose(0, 2, 1, 3, 4).reshape(-1, p * p * c)\n")


def test_two_model_solution_quotes_of_a_sentence_say_so_once():
    """Coordinated quotes share one "the model solution's"; a quote of code the one before it
    holds is said as "its" (the reshape's `H // P`): true of each, and read once."""
    bare = "def encoder_block(x, p, heads):\n    return x + mlp(x, p)\n"
    assert attributed(NO_LN1, source(bare)) == (
        "In `encoder_block`, the LayerNorm (with the model solution's `p['ln1_g']` and "
        "`p['ln1_b']`) is left out: its input goes on as it is.")
    mine = "def self_attention(x, p, heads, causal=False):\n    m = tril(len(x))\n    return m\n"
    assert attributed(ALWAYS, source(mine)) == (
        "In `self_attention`, the model solution's `causal_mask(x.shape[-2]) if causal else None` "
        "is always its `causal_mask(x.shape[-2])`: whatever `causal` says, the code takes that "
        "branch.")


def test_three_model_solution_quotes_of_a_sentence_say_so_once():
    assert attributed(SIDES, source(OWN_SPELLING)) == (
        "In `patchify`, the model solution's `image.reshape(H // P, P, W // P, P, C)` is given "
        "its `H // P` and `W // P` the other way round, `image.reshape(W // P, P, H // P, P, C)` "
        "(H for W: the same only where they are equal).")
    # a list of three coordinated quotes shares one too; two sentences each say it once
    three = ("In `encoder_block`, `p['ln1_g']`, `p['ln1_b']` and `p['ln2_g']` are left out. "
             "In `encoder_block`, `p['ln2_b']` or `p['ln1_b']` is read twice.")
    assert attributed(three, source("def encoder_block(x, p, heads):\n    return x\n")) == (
        "In `encoder_block`, the model solution's `p['ln1_g']`, `p['ln1_b']` and `p['ln2_g']` "
        "are left out. In `encoder_block`, the model solution's `p['ln2_b']` or `p['ln1_b']` is "
        "read twice.")


def test_a_sentence_that_also_quotes_the_student_s_code_keeps_one_prefix_a_quote():
    """Where one quote of the sentence is the student's own code, each of the model solution's
    keeps its own words: a quote left bare there reads as theirs, an "its" as the student's."""
    hint = ("In `patchify`, `grid.transpose(0, 2, 1, 3, 4)` reads `image.reshape(H // P, P, "
            "W // P, P, C)` given `H // P` and `W // P` the other way round.")
    theirs = attributed(hint, source(OWN_SPELLING))
    assert theirs == hint.replace("reads `", "reads the model solution's `").replace(
        "given `H", "given the model solution's `H").replace(
        "and `W", "and the model solution's `W")
    other = OWN_SPELLING.replace("grid.transpose(0, 2, 1, 3, 4)", "np.swapaxes(grid, 1, 2)")
    assert attributed(hint, source(other)) == hint.replace(  # all the model solution's
        "`grid", "the model solution's `grid").replace(
        "reads `", "reads the model solution's `").replace("given `H", "given its `H")
    # "its" only of the model solution's code: a step the student's code holds stays bare
    held = "def self_attention(x, p, heads, causal=False):\n    return causal_mask(x.shape[-2])\n"
    assert attributed(ALWAYS, source(held)) == ALWAYS.replace(
        "`causal_mask(x.shape[-2]) if", "the model solution's `causal_mask(x.shape[-2]) if")


def test_a_quote_already_said_as_the_model_solution_s_is_said_once():
    """A sentence whose words already say "the model solution's `...`" gets no more of it, and
    a hint said once is left as it is when attributed again."""
    said = SIDES.replace("`image.reshape(H", "the model solution's `image.reshape(H")
    assert attributed(said, source(OWN_SPELLING)) == said  # its own words cover the clause
    once = attributed(SIDES, source(OWN_SPELLING))
    assert "its `H // P` and `W // P`" in once and attributed(once, source(OWN_SPELLING)) == once
    stepped = ("In `self_attention` (at the model solution's step `causal_mask(x.shape[-2])`), "
               "`np.tri(T, dtype=bool)` is one diagonal off.")
    mine = "def self_attention(x, p, heads, causal=False):\n    return x\n"
    assert attributed(stepped, source(mine)) == stepped.replace(
        "), `np", "), the model solution's `np")  # not "its": a step's bracket is closed
