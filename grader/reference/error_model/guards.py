"""Operators on what the checked function accepts: the student's own guard, which refuses inputs
the lecture's function takes (issue 38, "refusals"). Real code refuses what its author never
meant to pass:

- a gray (H, W) image: code written for RGB arrays unpacks `H, W, C = image.shape` or asserts
  `image.ndim == 3` (numpy stride-trick patchifies, Keras' `InputSpec(ndim=4)` ported to one
  image), where the lecture reads a 2-D image as one channel; the unpacking is its own edit
  (`gray-unpacked`: Python's ValueError by its very message, "not enough values to unpack",
  which `named_refusal` prefers to a guard of any exception: Keras' and torch's patch layers'
  `H, W, C = image.shape` in an embed_image whose helpers take the gray image);
- any image but (H, W, 3): torchvision's `_assert_channels(img, [3])`, a "only RGB images" check
  written for PIL's `convert("RGB")` pipelines;
- a channel count other than 1 and 3 (PIL's "L" and "RGB" modes, a tutorial's `if C not in (1,
  3): raise`), or other than 3;
- a softmax along any axis but the last: TensorFlow.js's `softmax_` ("Softmax along a non-last
  dimension is not yet supported"), cuDNN's and Triton's row-wise kernels.
- an array that is not 2-D, of a softmax written for one (rows, cols) score matrix (`rows,
  cols = x.shape`, `[max(row) for row in x]`, a 2-D kernel's row loop): a 1-D vector and a 3-D
  stack of heads' scores raise alike;
- an array that is neither 2-D nor 3-D: Keras 1's `activations.softmax` ("Cannot apply
  softmax to a tensor that is not 2D or 3D", a plain Exception), written for a batch of rows or
  of sequences, refuses a 1-D vector and a 4-D batch of attention scores alike;
- a normaliser's `x` that is not a 2-D (T, d) matrix: a `normalization(x)` written for [N, m]
  rows and [N, C, H, W] images (statistics over axis 1, or BatchNorm's axes (0, 2, 3)), a
  `T, d = x.shape` unpack, Eigen's row-wise `MatrixXd` LayerNorm ported to numpy: a single
  (d,) token and a batched (B, T, d) input raise, where the lecture's normalises the last axis;
- a non-square image: the square-only guard of code written for one `image_size` (akshathmangudi's
  `assert h == w, "Only square images supported"`, early lucidrains vit-pytorch's one
  `image_size`), any spelling (`if H != W: raise ...`); named only on a raise
  the student's code makes itself (OWN_ONLY: an AssertionError, or a message none of numpy's
  nor Python's own), as code that cuts the image with H and W mixed up raises numpy's broadcast
  or index error on every non-square image too (b37_01), with no guard of its author's;
- in a convolution, an image whose rows or columns the stride leaves over: an as_strided
  im2col's `assert (H - k) % stride == 0` (MoisesNNFS's Conv.py), where the lecture floors;
  named only where no rewrite of the reference's own tests does (a ValueError there is
  kernel_fit.py's "windows-fit-exactly", which reproduces the type too), and, as that one,
  only on a raise of the student's own (OWN_ONLY): an output size rounded up cuts the last
  window short, and numpy refuses it on the same images (b61_09, grid_end.py's ceil grid).

Each edit puts a guard in front of the checked function's first read of the parameter it
tests: the guard raises Refused (a ValueError) on the inputs it refuses, and the reference runs
unchanged on every other. Its values differ from the reference's only by raising, so the search
never tries it (`modules.NAMED_ELSEWHERE`): `checks/kinds/refusals.py` (`named_refusal`) names
one only where a case that asked for a value raised, when it raises on exactly the calls the
student's code raised on (where the guard refuses, by any exception): the check's, the
function's other checks' and probes that vary what the guard tests (every channel count, every
axis, gray images of each size); and returns the reference's value on all the others. A correct
guard, one that refuses only what the lecture's refuses, never gets there. The sentence says
what is refused, not why (the cases show that, not the code's reason).

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, where
from .tree import PREFIX


def _integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _gray(image) -> bool:
    return np.ndim(image) == 2


def _not_rgb(image) -> bool:
    return not (np.ndim(image) == 3 and np.shape(image)[-1] == 3)


def _not_square(image) -> bool:
    return np.ndim(image) in (2, 3) and np.shape(image)[0] != np.shape(image)[1]


def _not_gray_or_rgb(C) -> bool:
    return _integer(C) and int(C) not in (1, 3)


def _not_three(C) -> bool:
    return _integer(C) and int(C) != 3


def _not_last(x, axis) -> bool:
    ndim = np.ndim(x)
    return (ndim > 0 and _integer(axis) and -ndim <= axis < ndim
            and int(axis) % ndim != ndim - 1)


def _not_two_or_three_axes(x, axis) -> bool:
    """Of a function that also takes an `axis` (a softmax, the activation Keras 1 guards)."""
    return isinstance(x, np.ndarray) and x.ndim not in (2, 3)


def _not_a_matrix(x, axis) -> bool:
    """Of a function that also takes an `axis` (a softmax written for one score matrix): an `x`
    that is not 2-D."""
    return isinstance(x, np.ndarray) and x.ndim != 2


def _not_two_axes(x, gamma) -> bool:
    """Of a normaliser over the last axis (it takes `gamma`): an `x` that is not 2-D."""
    return isinstance(x, np.ndarray) and x.ndim != 2


class Refused(ValueError):
    """A guard's refusal: it reproduces a raise of any exception (the student's own guard raises
    what its author chose: its message and its type are no guess of the lecture's)."""


class OwnRefused(Refused):
    """A refusal of OWN_ONLY's guards: it reproduces only a raise the student's code makes itself
    (`own_raise`), not numpy's or Python's own refusal of a shape, which another mistake
    makes on the same inputs."""


# numpy's and Python's own refusals of a shape or an index (a broadcast into a row of the wrong
# width, a reshape, an index past the end, an unpacking)
BUILT_IN = re.compile(r"could not broadcast|cannot reshape|out of bounds|index|operands could "
                      r"not|not aligned|mismatch|values to unpack|size \d+ is different")


OWN_TEST = "own_test"  # a ValueError's attribute: a rewritten test's refusal (kernel_fit.py's)


def own_test_refusal(message: str) -> ValueError:
    """A rewritten test's refusal (kernel_fit.py's): a plain ValueError, as the reference's own
    test raises, marked to reproduce only a ValueError the student's code raises itself
    (`own_raise`), never numpy's refusal of a later step's shapes (blind round 61's b61_09: an
    output size rounded up cuts the last window short, and `np.tensordot` refuses it,
    "shape-mismatch for sum", on the very images a test of exact fit refuses)."""
    error = ValueError(message)
    setattr(error, OWN_TEST, True)
    return error


def own_raise(error: Exception, kind: str, message: str, statement: str | None = None) -> bool:
    """Whether the student's raise (its exception's type name and message) may be the guard
    `error` stands for: any raise for a Refused, only the student's own for an OwnRefused (an
    `assert`'s AssertionError, or an exception that is no IndexError and whose message is none
    of BUILT_IN's), and for a rewritten test's refusal (`own_test_refusal`) only a ValueError
    of the student's own: where `statement` is known (the student's innermost line the
    exception came through), a `raise` there, not a call into numpy whose
    message BUILT_IN does not list (blind round 77's b77_07: no kernel test, numpy refusing an
    empty result's reshape). A guard's may come from another line: paired with a reading that
    raises on the same images (a gray image's `transpose(2, 0, 1)`), its raise is the other's."""
    if getattr(error, OWN_TEST, False):
        return kind == "ValueError" and not BUILT_IN.search(message or "") and (
            statement is None or bool(OWN_STATEMENT.match(statement)))
    return not isinstance(error, OwnRefused) or kind == "AssertionError" or (
        kind != "IndexError" and not BUILT_IN.search(message or ""))


OWN_STATEMENT = re.compile(r"raise\b")  # a line that raises by itself


def refused_by_computation(kind: str, statement: str | None) -> bool:
    """Whether the student's raise (its exception's type name, its innermost line) came from a
    line that raises nothing by itself, a call into numpy refusing what the code computed (the
    reshape or the stack of an empty list of windows), not a `raise` or an `assert` of its own:
    where a rewrite with no test returns an empty array, code with no test returns one or has
    numpy refuse it (blind round 77's b77_07, `np.array(rows).reshape(len(rows), -1, d)`).
    Only numpy's kinds of refusal of a shape, ValueError and IndexError (an empty list indexed):
    a library's test called on a line of the student's raises what that library chose."""
    return (statement is not None and kind in ("ValueError", "IndexError")
            and not OWN_STATEMENT.match(statement) and not statement.startswith("assert"))


UNPACKED = "not enough values to unpack (expected 3, got 2)"  # Python's, `H, W, C = shape`


def _stride_leaves_over(image, K, stride) -> bool:
    """Whether the stride leaves rows or columns over, `(H - k) % stride` or `(W - k) % stride`
    as code tests it (Python's modulo; a positive integer stride: other calls are the
    lecture's)."""
    if not (_integer(stride) and stride > 0 and np.ndim(image) in (2, 3) and np.ndim(K) == 4):
        return False
    (H, W), (kh, kw) = np.shape(image)[:2], np.shape(K)[:2]
    return bool((H - kh) % stride or (W - kw) % stride)


# detail -> (the parameters it reads, in order, the first the one guarded; the inputs it refuses;
# what they have in common, said to the student; what the lecture's does with them)
GUARDS = {
    "gray-refused": (("image",), _gray, "a 2-D (H, W) gray image",
                     "the model solution's reads a 2-D image as one channel, (H, W, 1)"),
    "gray-unpacked": (("image",), _gray, "a 2-D (H, W) gray image",
                      "the model solution's reads a 2-D image as one channel, (H, W, 1)"),
    "non-square-refused": (("image",), _not_square, "a non-square image (H != W)",
                           "the model solution's takes an H x W image whatever its sides"),
    "rgb-only": (("image",), _not_rgb, "every image but an (H, W, 3) RGB one (a gray image, "
                 "one channel, four)", "the model solution's takes (H, W) and (H, W, C) for any C"),
    "gray-or-rgb-only": (("C",), _not_gray_or_rgb, "every channel count C but 1 and 3 (gray "
                         "and RGB)", "the model solution's counts P*P*C numbers for any "
                         "positive C"),
    "three-channels-only": (("C",), _not_three, "every channel count C but 3",
                            "the model solution's counts P*P*C numbers for any positive C"),
    "windows-must-fit": (("image", "K", "stride"), _stride_leaves_over, "an image whose "
                         "rows or columns the stride leaves over (`(H - k) % stride` or `(W - "
                         "k) % stride` not 0)", "the model solution's floors, H' = (H - k) // "
                         "stride + 1, the rows and columns left over unread"),
    "two-or-three-axes-only": (("x", "axis"), _not_two_or_three_axes, "an `x` that is neither 2-D "
                               "nor 3-D (a 1-D vector, a 4-D batch)", "the model solution's takes "
                               "an array of any number of axes"),
    "matrix-only": (("x", "axis"), _not_a_matrix, "an `x` that is not a 2-D matrix (a 1-D "
                    "vector, a 3-D stack of score matrices)", "the model solution's takes an "
                    "array of any number of axes"),
    "two-axes-only": (("x", "gamma"), _not_two_axes, "an `x` that is not a 2-D (T, d) matrix "
                      "(a single (d,) token, a batched (B, T, d) input)", "the model solution's "
                      "normalises each row along the last axis, whatever axes come before it"),
    "last-axis-only": (("x", "axis"), _not_last, "every `axis` but the last one of `x`",
                       "the model solution's works along any axis (where a library supports only "
                       "the last one, move `axis` last with np.moveaxis and back)"),
}


def guard(detail: str):
    """The guard of GUARDS[detail]: its first argument back, or Refused on what it refuses."""
    refuses = GUARDS[detail][1]

    def guarded(value, *others):
        if refuses(value, *others) and detail in SAID:  # Python's own raise, by its message
            raise ValueError(UNPACKED)
        if refuses(value, *others):
            raise (OwnRefused if detail in OWN_ONLY else Refused)(
                f"refused: {GUARDS[detail][2]}")
        return value
    guarded.__name__ = f"refuses_{detail.replace('-', '_')}"
    return guarded


OWN_ONLY = ("non-square-refused",  # named only on the student's own raise (`own_raise`)
            "windows-must-fit")  # not numpy's on a window cut short (b61_09's ceil output size)
SQUARE = "non-square-refused"  # probed on square images too (`aspects.square_probes`)
BOUND = {detail: guard(detail) for detail in GUARDS}


def refuses(detail: str, arguments: dict) -> bool:
    """Whether the guard `detail` refuses a call with these arguments (by name, defaults
    included): a cheap test before any probe runs, as a guard named on a case must refuse it."""
    reads, refused, _, _ = GUARDS[detail]
    if not all(name in arguments for name in reads):
        return False
    try:
        return bool(refused(*(arguments[name] for name in reads)))
    except (TypeError, ValueError):
        return False


@functools.lru_cache(maxsize=256)
def _first_reads(function: ast.FunctionDef) -> dict[str, int]:
    """Each parameter's first read in the function, by the id of its Name node (pre-order)."""
    from .tree import nodes
    parameters = {a.arg for a in function.args.args}
    first: dict[str, int] = {}
    for node, _, _, _ in nodes(function):
        if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                and node.id in parameters and node.id not in first):
            first[node.id] = id(node)
    return first


def _passed_on(context: Context, name: str) -> str | None:
    """The helper the checked function hands the parameter `name` to, as it is, where it never
    reads the parameter's shape itself (embed_image's `linear_patch_embed(image, ...)`): its
    own unpacking of that shape is then a refusal the lecture's code makes nowhere."""
    body = context.instance.node
    if any(isinstance(n, ast.Attribute) and n.attr == "shape" and isinstance(n.value, ast.Name)
           and n.value.id == name for n in ast.walk(body)):
        return None
    return next((callee(n) for n in ast.walk(body) if isinstance(n, ast.Call)
                 and any(isinstance(a, ast.Name) and a.id == name for a in n.args)), None)


def guarded(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's first read of a parameter a guard of GUARDS tests, guarded: only
    in the checked function itself (a helper's inputs are its caller's choice), and only where
    every parameter the guard reads is the function's."""
    if not isinstance(node, ast.Name) or "/" in context.instance.path:
        return
    first = _first_reads(context.instance.node)
    if first.get(node.id) != id(node):
        return
    given = _passed_on(context, node.id)
    for detail, (reads, _, refused, lecture) in GUARDS.items():
        if reads[0] != node.id or not all(name in first for name in reads) or (
                detail in SAID and given is None):
            continue
        bound = f"{PREFIX}guard_{detail.replace('-', '_')}"
        yield Change(detail, SAID.get(detail, GUARDED).format(
                         where=where(context), refused=refused, lecture=lecture, name=node.id,
                         helper=given),
                     lambda n, bound=bound, reads=reads: ast.Call(
                         ast.Name(bound, ast.Load()),
                         [n, *(ast.Name(name, ast.Load()) for name in reads[1:])], []),
                     names=((bound, BOUND[detail]),))


GUARDED = ("In {where}, {refused} is refused (an error is raised for it), where {lecture}: "
           "accept every input the model solution's function accepts.")
SAID = {  # a guard that raises Python's own error, by its message: said as the code that does
    "gray-unpacked": "In {where}, the shape of `{name}` is unpacked into three sizes (`H, W, C "
                     "= {name}.shape`): {refused} raises ValueError (not enough values to "
                     "unpack), where {lecture}, as the `{helper}` it is passed to does: read "
                     "H, W from `{name}.shape[:2]`, or treat a 2-D image as (H, W, 1), "
                     "`{name}[..., None]`.",
}
OPERATORS = {"guarded": guarded}
REFUSAL_OPERATORS = ("guarded",)  # weighed by `checks/kinds/refusals.py` only
