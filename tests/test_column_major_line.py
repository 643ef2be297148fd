"""A patch order read column-major, said as the student's line that makes it (blind round 63's
b63_07): its `patchify` flattened each patch in a nested helper, `patch.reshape(-1, order="F")`,
and was told the column-major cause in the words of a transpose it never wrote, with no word of
its `img2patch` nor of `order="F"`. Where the hint says that order, the one flatten of the
function or of a helper it defines or calls that reads column-major is quoted, with the fix in
the student's terms; a row-major flatten never is (report/column_major.py)."""
from __future__ import annotations

import pytest

from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.report.column_major import F_FIX, T_FIX, ordered
from grader.report.quotes import COLUMN_MAJOR, Source, attributed

from conftest import SOLUTION

SWAP = "op:axes_swapped:patchify:transpose-0-2-4-3-1"
_NAME = next(e.name for e in em.model(REFERENCE["patchify"])[1]
             if e.detail == "transpose-0-2-4-3-1")
SENTENCE = em.sentence(REFERENCE["patchify"], _NAME)

# b63_07's own patchify: the helper nested
NESTED = '''
def patchify(image, P):
    def img2patch(x, patchsize):
        H, W, C = x.shape
        patches = []
        for i in range(0, H, patchsize):
            for j in range(0, W, patchsize):
                patch = x[i:i + patchsize, j:j + patchsize, :]
                patches.append(patch.reshape(-1, order="F"))
        return np.stack(patches, axis=0)

    x = _as_hwc(image)
    num_patches(x.shape[0], x.shape[1], P)
    return img2patch(x, P)
'''
# a top-level helper, the order given positionally
TOP_LEVEL = '''
def patchify(image, P):
    x = _as_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    return np.stack([patch_column(x[r:r + P, c:c + P]) for r in range(0, H, P)
                     for c in range(0, W, P)])


def patch_column(patch):
    return np.ravel(patch, 'F')
'''
# inline: every axis of each patch reversed before a row-major flatten
INLINE = '''
def patchify(image, P):
    x = _as_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    rows = []
    for r in range(0, H, P):
        for c in range(0, W, P):
            rows.append(x[r:r + P, c:c + P].T.reshape(-1))
    return np.array(rows)
'''
# the control: the same helper flattening row-major (right)
ROW_MAJOR = NESTED.replace('patch.reshape(-1, order="F")', "patch.reshape(-1)")
EXPECTED = {
    NESTED: ('patch.reshape(-1, order="F")', "in your `img2patch`, called by `patchify`",
             f'drop `order="F"` {F_FIX}'),
    TOP_LEVEL: ("np.ravel(patch, 'F')", "in your `patch_column`, called by `patchify`",
                f"drop its `'F'` {F_FIX}"),
    INLINE: ("x[r:r + P, c:c + P].T.reshape(-1)", "", f"drop `.T` {T_FIX}"),
}


def _submission(code: str) -> str:
    """The solution with `patchify` replaced by the one `code` defines, and `code`'s other
    functions (helpers the solution does not have) after it."""
    solution = SOLUTION.read_text()
    start = solution.index("def patchify(")
    end = solution.index("\ndef ", start)
    return solution[:start] + code.strip() + "\n\n" + solution[end:]


@pytest.mark.parametrize("code", [NESTED, TOP_LEVEL, INLINE], ids=["nested", "top", "inline"])
def test_the_line_that_flattens_column_major_is_said_with_its_fix(catalogue, tmp_path, code):
    from grader.checks import SubmissionGrading
    from grader.report.spelled import finished
    from grader.worker import StudentWorker

    text = _submission(code)
    path = tmp_path / "vit_exercises.py"
    path.write_text(text)
    chosen = [e for e in catalogue if e.id == "patchify"]
    with StudentWorker(path) as worker:
        result = SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])
    told = finished(result, Source([text]))
    call, where, fix = EXPECTED[code]
    line = next(n for n, t in enumerate(text.splitlines(), 1) if call in t)
    where = f"line {line}, {where}" if where else f"line {line}"
    named = [c.hint for c in told.checks if not c.passed and c.misconception == SWAP]
    assert named, [(c.misconception, c.hint) for c in told.checks]
    for hint in named:
        assert "grid.transpose(0, 2, 4, 3, 1)" not in hint, hint
        assert hint.endswith(f" That order is made by `{call}` ({where}): {fix}."), hint


@pytest.mark.parametrize("code", [NESTED, TOP_LEVEL, INLINE], ids=["nested", "top", "inline"])
def test_a_notebook_gets_no_line_number(code):
    told = ordered(attributed(SENTENCE, Source([code, "x = 1"])), Source([code, "x = 1"]))
    call, where, _ = EXPECTED[code]
    assert f" That order is made by `{call}`{f' ({where})' if where else ''}: " in told, told


@pytest.mark.parametrize(("code", "one"), [
    (ROW_MAJOR, False),  # the control: a right row-major flatten in a helper
    (NESTED.replace("return img2patch(x, P)", "return x"), False),  # a helper never called
    (NESTED.replace("patches.append(", "patches.append(x.T.ravel()[:1] + "), False),  # two
    (NESTED.replace("return np.stack(patches, axis=0)",
                    "return np.stack(patches, axis=0)\n\n        def unused(a):\n"
                    "            return a.flatten('F')"), True),  # dead code beside the one
    (INLINE.replace(".T.reshape(-1)", ".transpose(0, 2, 1).reshape(-1)"), False),  # not reversed
    (INLINE.replace(".T.reshape(-1)", ".reshape(-1)").replace(
        "np.array(rows)", "np.array(rows)\n\n\ndef linear_patch_embed(image, W_e, b_e, P):\n"
        "    return np.ravel(patchify(image, P), 'F')"), False),  # in a function not called
])
def test_no_line_is_said_but_the_one_column_major_flatten_of_the_function(code, one):
    said = ordered(SENTENCE, Source([code]))
    assert (" That order is made by " in said) is one, said


def test_the_error_model_says_the_column_major_order_in_the_words_looked_for():
    assert COLUMN_MAJOR in SENTENCE, SENTENCE


def test_only_a_hint_of_the_column_major_order_gets_a_line():
    other = SENTENCE.split(" (the last", 1)[0] + ": the model solution's order is `...`."
    assert ordered(other, Source([NESTED])) == other
    assert ordered(SENTENCE, None) == SENTENCE
    assert ordered(None, Source([NESTED])) is None


@pytest.mark.parametrize(("flatten", "fix"), [
    ("np.reshape(patch, -1, 'F')", f"drop its `'F'` {F_FIX}"),
    ("patch.flatten(order='F')", f"drop `order='F'` {F_FIX}"),
    ("patch.transpose(2, 1, 0).reshape(-1)", f"drop `.transpose(2, 1, 0)` {T_FIX}"),
    ("patch.transpose().ravel()", f"drop `.transpose()` {T_FIX}"),
    ("np.ravel(np.transpose(patch))", f"drop the transpose: flatten `patch` itself {T_FIX}"),
    ("np.transpose(patch, (2, 1, 0)).flatten()",
     f"drop the transpose: flatten `patch` itself {T_FIX}"),
    ("patch.reshape(1, P, P, -1).transpose(0, 3, 2, 1).reshape(-1)",
     f"drop `.transpose(0, 3, 2, 1)` {T_FIX}"),
    ("patch.transpose(1, 0, 2).reshape(-1)", None),  # its rows and columns swapped: no reversal
    ("patch.reshape(-1, order='C')", None),
    ("np.ravel(patch)", None),
])
def test_each_way_of_flattening_column_major_gets_its_own_fix(flatten, fix):
    told = ordered(SENTENCE, Source([f"def patchify(patch, P):\n    return {flatten}\n"]))
    if fix is None:
        assert told == SENTENCE
    else:
        assert told == f"{SENTENCE} That order is made by `{flatten}` (line 2): {fix}.", told
