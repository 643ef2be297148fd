"""Operators on the convolution's refusal test: which kernels are said not to fit the image.

The reference refuses, with ValueError, only a k x k kernel taller or wider than the image
(`_check_conv`, a validation helper the tree never descends into): a kernel as large as the
image fits (one window), and a stride that leaves rows over is floored, as every deep-learning
convolution does. Real code tests it otherwise:

- `>=` for `>`: `if k >= H or k >= W` (a from-scratch loop's guard, "the kernel must be smaller
  than the image"), a kernel as tall or as wide as the image refused;
- the kernel against every size of the image's shape, channels included: `if k > min(image.
  shape)` (torchvision-style ports that write one guard for a (C, H, W) or (H, W, C) tensor),
  on the image as it was passed (a 2-D image has no channel count) or once it is (H, W, C);
- windows that must fit exactly: `if (H - k) % stride or (W - k) % stride` (Keras' "valid"
  padding tutorials, which say the output is defined only when the windows fit), a stride that
  leaves rows or columns over refused instead of floored; its test quoted as an effect (EFFECT:
  the student's own where their code holds it; b79_01 wrote `(H - HH) % S != 0 or ...`).

- one side only (`kernel_one_side`): `if k > h_in` (nouman-tariq/vision's im2col_conv_matlab.m
  port, a square image assumed) or the width only, the other side left as no test leaves it
  (an empty array, or numpy's ValueError for a negative size), as tiling.py's one-side tests;
  the side it tests refused as VARIANTS refuse, by the student's own raise only (`_one_side`);
- no kernel test at all (`kernel_untested`): an as_strided im2col or a loop filling
  `np.zeros((H', W', d))` with H' = (H - k) // stride + 1 returns an empty array where a kernel
  larger than the image makes that 0, and numpy's ValueError where it is negative; paired by
  `named_refusal` with a guard of guards.py (an assert on the stride) where both show, or with
  a value single (dilation.py's `buffer_by_stride`, whose edit, applied after this one, binds
  `no_windows` anew: its buffer of H // stride rows, no window written); or with the windows
  taken on (`kernel-untested-windows-taken`), paired only with a single another check of the
  function named (the image zero-padded 'SAME' first, awp4211/DLAdvance's dcgan
  `conv_out_size_same` with tf.nn.conv2d's padding='SAME': a padded image always fits the
  kernel): alone it is numpy's own ValueError, the refusal asked for.

Each of VARIANTS keeps the reference's own refusals and adds one (a ValueError that reproduces
only the student's own raise, guards.own_test_refusal: numpy's refusal of a later step on the same
images, a last window cut short by an output size rounded up, is no test of the student's); its
values are the reference's wherever it does not refuse, so `checks/kinds/refusals.py` weighs them
(`named_refusal`, with its probe images) where a case asking for a value raised ValueError; the
search never tries them (`modules.NAMED_ELSEWHERE`). An operator as in operators.py (`f(context,
node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterator

import numpy as np

from .change import EFFECT, Change, Context, callee, is_checked_function, prepended, where
from .guards import own_test_refusal
from .tree import PREFIX

TESTED = "_check_conv"  # the reference's kernel test: (image shape, kernel shape, stride)
IMAGE = "as_hwc"  # the reference's image, read as (H, W, C)


def _refusing(check, extra):
    """The reference's test `check`, refusing also what `extra(shape, kernel, stride, given)`
    holds for (`given`: the image's shape as it was passed)."""
    def guard(image_shape, kernel_shape, stride, given):
        stride = check(image_shape, kernel_shape, stride)
        if extra(tuple(image_shape), tuple(kernel_shape), stride, tuple(np.shape(given))):
            raise own_test_refusal(f"a {kernel_shape[0]}x{kernel_shape[1]} kernel does not fit")
        return stride
    return guard


# detail -> (the extra refusal, what the code tests, what it refuses wrongly, the fix)
VARIANTS = {
    "as-large-refused": (
        lambda s, k, stride, given: k[0] >= s[0] or k[1] >= s[1],
        "`k >= H or k >= W`", "a kernel as tall or as wide as the image is refused, although "
        "it fits (one window)", "refuse only `k > H or k > W`"),
    "min-of-given-shape": (
        lambda s, k, stride, given: k[0] > min(given),
        "the kernel against every size of the image's shape as it was passed, `k > "
        "min(image.shape)`, channels included", "a kernel larger than the channel count (k = 4 "
        "on an 8 x 8 x 3 image) is refused, although it fits", "compare k with H and W only"),
    "min-of-hwc-shape": (
        lambda s, k, stride, given: k[0] > min(s),
        "the kernel against every size of the (H, W, C) image, `k > min(image.shape)`, "
        "channels included", "a kernel larger than the channel count (k = 2 on a gray image, "
        "k = 4 on an RGB one) is refused, although it fits", "compare k with H and W only"),
    "windows-fit-exactly": (
        lambda s, k, stride, given: (s[0] - k[0]) % stride or (s[1] - k[1]) % stride,
        f"that the windows fit exactly, {EFFECT}`(H - k) % stride or (W - k) % stride`",
        "a stride that leaves rows or columns over is refused", "floor instead: H' = (H - k) // "
        "stride + 1, the rows left over unread, as every deep-learning convolution does"),
}


def _given(function: ast.FunctionDef) -> str | None:
    """The image as the function was given it: the parameter its `as_hwc(...)` call reads."""
    parameters = {a.arg for a in function.args.args}
    for sub in ast.walk(function):
        if (isinstance(sub, ast.Call) and callee(sub) == IMAGE and len(sub.args) == 1
                and isinstance(sub.args[0], ast.Name) and sub.args[0].id in parameters):
            return sub.args[0].id
    return None


def _tested(function: ast.FunctionDef) -> ast.Call | None:
    for sub in ast.walk(function):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
                and sub.func.id == TESTED and len(sub.args) == 3):
            return sub
    return None


class _Guarded(ast.NodeTransformer):
    """The kernel test's call made `bound(*its arguments, the given image)`."""

    def __init__(self, bound: str):
        self.bound = bound

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == TESTED and len(node.args) == 3:
            return ast.Call(ast.Name(self.bound, ast.Load()),
                            [*node.args, ast.Name(GIVEN, ast.Load())], [])
        return node


GIVEN = f"{PREFIX}given_image"


def _guarded(function: ast.FunctionDef, image: str, bound: str) -> ast.FunctionDef:
    new = _Guarded(bound).visit(copy.deepcopy(function))
    return prepended(new, ast.Assign([ast.Name(GIVEN, ast.Store())], ast.Name(image, ast.Load()),
                                     lineno=0))


def kernel_fit(context: Context, node: ast.AST) -> Iterator[Change]:
    """The reference's kernel test `_check_conv(image.shape, K.shape, stride)` refusing also
    one of VARIANTS, in the checked function itself (the image as given kept first)."""
    if not is_checked_function(context, node):
        return
    call, image = _tested(node), _given(node)
    check = context.instance.function.__globals__.get(TESTED)
    if call is None or image is None or check is None:
        return
    for detail, (extra, tests, refuses, fix) in VARIANTS.items():
        bound = f"{PREFIX}guard_{detail.replace('-', '_')}"
        yield Change(detail,
                     f"In {where(context)}, the test that the kernel fits the image "
                     f"tests {tests}: {refuses}. A valid convolution refuses only a kernel "
                     f"taller or wider than the image: {fix}.",
                     lambda n, bound=bound, image=image: _guarded(n, image, bound),
                     names=((bound, _refusing(check, extra)),))


def _untested(check, sides=(0, 1)):
    """The reference's test `check` without its kernel test on `sides` (0 the height, 1 the
    width): a kernel taller or wider than the image there passes (the other tests kept)."""
    def untested(image_shape, kernel_shape, stride):
        image_shape, kernel_shape = tuple(image_shape), tuple(kernel_shape)
        loosened = [max(image_shape[i], kernel_shape[i]) if i in sides else image_shape[i]
                    for i in (0, 1)]
        return check((*loosened, *image_shape[2:]), kernel_shape, stride)
    return untested


def _one_side(check, untested_side: int):
    """`_untested(check, (untested_side,))` whose refusal of a kernel larger than the tested
    side is the student's own test (`own_test_refusal`): it reproduces only a ValueError the
    student's code raises itself, never numpy's refusal of a later step on the same images
    (blind round 77's b77_07: no test at all, an empty result's final `reshape(len(result),
    -1, d)` raising where the kernel is taller than the image)."""
    loosened, untested = _untested(check, (untested_side,)), _untested(check)

    def one_side(image_shape, kernel_shape, stride):
        try:
            return loosened(image_shape, kernel_shape, stride)
        except ValueError as error:
            untested(image_shape, kernel_shape, stride)  # another test's refusal: as it is
            raise own_test_refusal(str(error)) from None
    return one_side


def kernel_overflow(counts):
    """What code with no kernel test returns, as a function of (image_shape, kernel_shape,
    stride): None where the kernel fits; where it does not, the (H', W', d) buffer the code
    allocated and wrote no window into, `np.zeros((*counts(H, W, kh, kw, stride), d))`."""
    def output(image_shape, kernel_shape, stride):
        (H, W, *_), (kh, kw, _, d) = tuple(image_shape), tuple(kernel_shape)
        if kh <= H and kw <= W:
            return None
        return np.zeros((*counts(H, W, kh, kw, stride), d))
    return output


def convolution_sizes(call) -> tuple | None:
    """((H, W), (kh, kw), stride) of a recorded `conv_patch_embed(image, K, b, stride)` call
    (positional or by keyword), or None where they cannot be read: what a `holds` test asks of
    the check's calls (dilation.py, stride_pads.py)."""
    given = dict(zip(("image", "K", "b", "stride"), call.args, strict=False)) | dict(call.kwargs)
    try:
        sides, kernel = np.shape(given["image"])[:2], np.shape(given["K"])[:2]
        stride = int(given["stride"])
    except (KeyError, TypeError, ValueError):
        return None
    return (sides, kernel, stride) if len(sides) == 2 and len(kernel) == 2 else None


def valid_counts(H, W, kh, kw, stride) -> list[int]:
    """H' = (H - kh) // stride + 1 and W' likewise: 0 where a kernel is one stride too large,
    negative (numpy's ValueError for the buffer) where it is larger still."""
    return [(H - kh) // stride + 1, (W - kw) // stride + 1]


# an as_strided im2col's shape, or `np.zeros((H', W', d))` filled by loops: an empty array
# where a count is 0, numpy's ValueError where one is negative
no_windows = kernel_overflow(valid_counts)


@functools.cache
def counted_from(counted: int, source: int):
    """`no_windows` of code whose count of windows along axis `counted` is taken from axis
    `source`'s (windows.py's `count_from_sibling`: `n_W = int((n_H_prev - f) / stride + 1)`,
    Coursera's conv_forward copied for the width), bound by that edit where it pairs with
    `kernel_untested`: the buffer (H', H', d); where both counts are positive the kernel runs
    over a side it does not fit, its slices cut short by the edge: ValueError (in both of that
    edit's readings: a one-pixel-wide image's slice that broadcasts is not reproduced, so not
    named)."""
    def counts(H, W, kh, kw, stride):
        sizes = valid_counts(H, W, kh, kw, stride)
        sizes[counted] = sizes[source]
        if min(sizes) > 0:
            raise ValueError("operands could not be broadcast together: a window cut short "
                             "by the image's edge meets the kernel")
        return sizes
    return kernel_overflow(counts)


class _Untested(ast.NodeTransformer):
    """`stride = _check_conv(...)` made `stride = untested(...)`, then `if` the kernel does not
    fit, `return` code's output for it (`no_windows`); with no `empty`, the windows are taken on
    (`kernel-untested-windows-taken`)."""

    def __init__(self, untested: str, empty: str | None):
        self.untested, self.empty = untested, empty

    def visit_Assign(self, node: ast.Assign):
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == TESTED and len(call.args) == 3 and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            return node
        tested = ast.Assign(node.targets, ast.Call(ast.Name(self.untested, ast.Load()),
                                                   call.args, []), lineno=0)
        if self.empty is None:
            return tested
        shapes = [copy.deepcopy(a) for a in call.args[:2]]
        empty = ast.Call(ast.Name(self.empty, ast.Load()),
                         [*shapes, ast.Name(node.targets[0].id, ast.Load())], [])
        returned = ast.If(ast.Compare(empty, [ast.IsNot()], [ast.Constant(None)]),
                          [ast.Return(copy.deepcopy(empty))], [])
        return [tested, returned]


def kernel_untested(context: Context, node: ast.AST) -> Iterator[Change]:
    """No kernel test in the checked function (an as_strided im2col, a loop filling
    `np.zeros((H', W', d))`): a kernel larger than the image gets an empty output, or numpy's
    ValueError, instead of the lecture's refusal."""
    if not is_checked_function(context, node) or _tested(node) is None:
        return
    check = context.instance.function.__globals__.get(TESTED)
    if check is None:
        return
    untested, empty = f"{PREFIX}kernel_untested", f"{PREFIX}no_windows"
    yield Change("kernel-untested",
                 f"In {where(context)}, nothing tests that the kernel fits the image: a kernel "
                 f"taller or wider than the image has no window that fits, yet an array comes "
                 f"back (an empty one, or the output buffer with no window written into it), or "
                 f"numpy's error for a negative size or for the empty result, where the lecture "
                 f"raises ValueError: refuse `k > H or k > W` first.",
                 lambda n: ast.fix_missing_locations(_Untested(untested, empty).visit(
                     copy.deepcopy(n))),
                 names=((untested, _untested(check)), (empty, no_windows)))
    yield Change("kernel-untested-windows-taken",
                 f"In {where(context)}, nothing tests that the kernel fits the image as it is "
                 f"given: the code goes on to take its windows, so a kernel taller or wider "
                 f"than the image gets an array back where the lecture raises ValueError: "
                 f"refuse `k > H or k > W` first, before anything else is done to the image.",
                 lambda n: ast.fix_missing_locations(_Untested(untested, None).visit(
                     copy.deepcopy(n))),
                 names=((untested, _untested(check)),))


# detail -> (the side left untested, the side tested, its test, the other side's test)
ONE_SIDE = {"height-only": (1, "height", "`k > H`", "`k > W`"),
            "width-only": (0, "width", "`k > W`", "`k > H`")}


def kernel_one_side(context: Context, node: ast.AST) -> Iterator[Change]:
    """The kernel test on one side of the image only (`if k > h_in`, a square image assumed):
    a kernel that fits that side but not the other gets what code with no test returns there
    (`no_windows`: an empty array, or numpy's ValueError for a negative size)."""
    if not is_checked_function(context, node) or _tested(node) is None:
        return
    check = context.instance.function.__globals__.get(TESTED)
    if check is None:
        return
    empty = f"{PREFIX}no_windows"
    for detail, (untested_side, side, tests, other) in ONE_SIDE.items():
        untested = f"{PREFIX}kernel_{detail.replace('-', '_')}"
        yield Change(detail,
                     f"In {where(context)}, the test that the kernel fits the image tests the "
                     f"{side} only ({tests}): a kernel that fits the {side} but not the other "
                     f"side has no window that fits, yet an array comes back (an empty one, or "
                     f"the output buffer with no window written into it), or numpy's error for "
                     f"a negative size, where the lecture raises ValueError: test {other} too.",
                     lambda n, untested=untested: ast.fix_missing_locations(
                         _Untested(untested, empty).visit(copy.deepcopy(n))),
                     names=((untested, _one_side(check, untested_side)),
                            (empty, no_windows)))


OPERATORS = {"kernel_fit": kernel_fit, "kernel_untested": kernel_untested,
             "kernel_one_side": kernel_one_side}
# the operators whose edits `checks/kinds/refusals.py` weighs on a function's refusal cases
REFUSAL_OPERATORS = ("kernel_fit", "kernel_untested", "kernel_one_side")
