"""Operators on how a function reads its image: a 2-D (H, W) image given its one channel axis
in front, (1, H, W), as channel-first code does (torch's `unsqueeze(0)`, MONAI's
`EnsureChannelFirst`), a 2-D image not given a channel axis at all (`H, W, C =
image.shape` or `C = image.shape[-1]` on a grayscale image), its channel count read off a third
axis a gray image lacks (`images.shape[2]`, a JAX MAE `patchify`'s), or its axes permuted as three
(`image.transpose(2, 0, 1)`, an (H, W, C) image moved channels first for a CS231n-style
im2col: numpy's "axes don't match array" on a 2-D one), or made three equal channels
(PIL's `convert("RGB")`), and the channels read in reverse order (OpenCV's BGR). The
reference reads every image through `as_hwc`, which the model never rewrites inside (it also
refuses bad shapes, the student's own checks); these rewrite its call. Each is an operator as
in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, is_checked_function, near_checked, where
from .tree import PREFIX

PROMOTES = "as_hwc"  # the reference's helper that gives a 2-D image its channel axis, last


def channel_in_front(image):
    """A 2-D image [H, W] as [1, H, W], any other as it is (an array)."""
    image = np.asarray(image)
    return image[None] if image.ndim == 2 else image


def gray_as_rgb(image):
    """A 2-D image [H, W] as three equal channels [H, W, 3], any other as it is (an array)."""
    image = np.asarray(image)
    return np.stack([image] * 3, axis=-1) if image.ndim == 2 else image


def channel_indexed(image):
    """The image as it is (an array), its channel count read first as `image.shape[2]`: a 2-D
    one raises Python's IndexError (tuple index out of range), as code that reads the channels
    off a third axis does."""
    image = np.asarray(image)
    image.shape[2]  # noqa: B018  (the read that raises on a 2-D image)
    return image


def axes_permuted_as_three(image):
    """The image as it is (an array), its axes permuted as three first, `.transpose(2, 0, 1)`:
    a 2-D (or 4-D) one raises numpy's ValueError, axes don't match array, as code that moves
    an (H, W, C) image channels first does."""
    return np.asarray(image).transpose(2, 0, 1).transpose(1, 2, 0)


def transposed_gray(image):
    """A 2-D image [H, W] transposed before its channel axis, [W, H, 1] (AST's time-frequency
    swap, `x.unsqueeze(1).transpose(2, 3)`, ported to one image); any other as it is."""
    image = np.asarray(image)
    return image.T[..., None] if image.ndim == 2 else image


def reversed_channels(image):
    """The image [H, W, C] with its channels in reverse order (RGB read as BGR)."""
    return image[..., ::-1]


ONE_CHANNEL = "a 2-D image is one channel, (H, W, 1), `{image}[..., None]`"
# operator -> (detail, sentence (`{image}`: the image's code), function, whether it takes the
# image in as_hwc's place, else as_hwc's result)
READINGS = {
    "channel_in_front": (
        "2d-channel-first", "a 2-D (H, W) `{image}` gets its channel axis in front, (1, H, W), "
        "as channel-first code does (`{image}[None]`, torch's `unsqueeze(0)`); the lecture's "
        "images are (H, W, C), so " + ONE_CHANNEL, channel_in_front, True),
    "not_promoted": (
        "2d-not-promoted", "a 2-D (H, W) `{image}` is read as it is, with no channel axis (its "
        "last axis, the width, taken for the channels, or its shape unpacked into H, W, C): "
        + ONE_CHANNEL, np.asarray, True),
    "channel_indexed": (
        "2d-channel-indexed", "`{image}` is read as having a third, channel axis (its channel "
        "count taken as `{image}.shape[2]`, as code written for (H, W, C) images only does), "
        "which a 2-D (H, W) image does not have: Python's IndexError, tuple index out of "
        "range; " + ONE_CHANNEL, channel_indexed, True),
    "axes_permuted": (
        "2d-axes-permuted-as-three", "`{image}`'s axes are permuted as three, an (H, W, C) "
        "image's (`{image}.transpose(2, 0, 1)` or another order, channels first, as code "
        "written for (H, W, C) images only does), which a 2-D (H, W) image does not have: "
        "numpy's ValueError, axes don't match array; " + ONE_CHANNEL, axes_permuted_as_three,
        True),
    "gray_to_rgb": (
        "2d-as-rgb", "a 2-D (H, W) `{image}` is made three equal channels, (H, W, 3), as some "
        "libraries do (PIL's `convert('RGB')`, `np.stack([{image}] * 3, -1)`): " + ONE_CHANNEL,
        gray_as_rgb, True),
    "gray_transposed": (
        "2d-transposed", "a 2-D (H, W) `{image}` is transposed before it gets its channel "
        "axis, (W, H, 1) (`{image}.T[..., None]`: its rows read as columns, as a spectrogram's "
        "time and frequency swapped with AST's `transpose(2, 3)`); (H, W, C) images are right, "
        "and " + ONE_CHANNEL + ", with no transpose", transposed_gray, True),
    "channels_reversed": (
        "channels-reversed", "`{image}`'s channels are read in reverse order, `{image}[..., "
        "::-1]`, as some libraries do (OpenCV's BGR for RGB): keep them in the order given",
        reversed_channels, False)}


def one_channel(image):
    """A 2-D image [H, W] as [H, W, 1], what ONE_CHANNEL tells the student to pass; None for any
    other (the sentence says nothing of it)."""
    image = np.asarray(image)
    return image[..., None] if image.ndim == 2 else None


# operator -> (parameter, the input its sentence tells the student to give instead): a reading
# whose claim is that the code fails on a gray image for want of its channel axis is named only
# where the student's code, given that axis, is right (checks/kinds/remedies.py): a raise alone
# (IndexError, "tuple index out of range") is any out-of-range index's, not this reading's
REMEDIES = {name: ("image", one_channel) for name, (_, words, _, _) in READINGS.items()
            if ONE_CHANNEL in words}

# tried only in the checked function or a helper it calls itself
NEAR = ("channel_indexed", "axes_permuted", "gray_transposed")


def rgb_seen(function, calls, same) -> bool:
    """Whether a call passed an (H, W, C) image: "(H, W, C) images are right" is then shown (the
    reading is the reference on them, and reproduces every call); on gray images alone it is a
    claim no call tested, and a code that transposes every image reproduces them as well."""
    return any(isinstance(a, np.ndarray) and a.ndim == 3 for c in calls for a in c.args)


# operator -> what its sentence says beyond the calls' values, checked on them (Change.holds)
HOLDS = {"gray_transposed": rgb_seen}


def _reading(name: str):
    detail, words, function, in_place = READINGS[name]

    def operator(context: Context, node: ast.AST) -> Iterator[Change]:
        if not (isinstance(node, ast.Call) and callee(node) == PROMOTES
                and len(node.args) == 1):
            return
        if name in NEAR and not near_checked(context):
            return  # a newer reading: not added to the deep trees (vit_forward's) as well
        bound, image = f"{PREFIX}{name}", code(node.args[0])
        yield Change(f"{image}-{detail}",
                     f"In {where(context)}, " + words.format(image=image) + ".",
                     lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                        list(n.args) if in_place else [n], []),
                     ((bound, function),), holds=HOLDS.get(name))

    operator.__doc__ = f"`as_hwc(image)` read as {function.__name__} does."
    return operator


class NotAGrid(Exception):  # noqa: N818 - never a student's exception: reproduces nothing
    """Raised by `sides_swapped` for a function whose result is no grid."""


def sides_swapped(function, image, *rest):
    """`function` (image, ...) run as code that keeps the image channels first and reads each
    channel's H x W buffer as W rows of H (darknet's `im2col_cpu(data_im, c, w, h, ...)`, whose
    signature takes (channels, height, width)), its (d, ., .) result buffer read back as (d, H',
    W'): the same as `function` for a square image."""
    img = np.asarray(image)
    img = img[..., None] if img.ndim == 2 else img
    if img.ndim != 3:
        return function(image, *rest)
    H, W, C = img.shape
    out = function(img.transpose(2, 0, 1).reshape(C, W, H).transpose(1, 2, 0), *rest)
    if not isinstance(out, np.ndarray) or out.ndim != 3:
        raise NotAGrid  # a function that returns no (H', W', d) grid (patchify): not this
    across, down, d = out.shape
    return out.transpose(2, 0, 1).reshape(d, down, across).transpose(1, 2, 0)


def buffer_sides_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function that reads an image (`as_hwc(image)`) run with its height and width
    swapped in a channels-first buffer, `sides_swapped` (blind round 57's b57_13, darknet's
    `im2col_cpu(data_im, c, w, h, ...)`): right for square images only, raising nothing."""
    if not (is_checked_function(context, node) and node.args.args and any(
            isinstance(n, ast.Call) and callee(n) == PROMOTES for n in ast.walk(node))):
        return
    bound, inner = f"{PREFIX}sides_swapped", f"{PREFIX}unswapped"
    image = node.args.args[0].arg
    names = [a.arg for a in node.args.args]

    def swapped(n: ast.FunctionDef) -> ast.FunctionDef:
        kept = copy.deepcopy(n)
        kept.name, kept.decorator_list = inner, []
        call = ast.Call(ast.Name(bound, ast.Load()),
                        [ast.Name(inner, ast.Load()), *(ast.Name(a, ast.Load()) for a in names)],
                        [])
        new = copy.copy(n)
        new.body = [kept, ast.Return(call)]
        return new

    yield Change(f"{image}-sides-swapped-in-buffer",
                 f"In {where(context)}, `{image}` is read with its height and width swapped in a "
                 "channels-first buffer: each channel's H x W numbers are read as W rows of H, "
                 "and the result's likewise (as a C routine such as darknet's `im2col_cpu(data_im, "
                 "channels, height, width, ...)` given the width where the height belongs): "
                 "right when H == W, wrong for any other image, with no error. Pass the height "
                 "and the width each where its signature takes it.",
                 swapped, ((bound, sides_swapped),))


OPERATORS = {name: _reading(name) for name in READINGS}  # tried after contractions.OPERATORS
OPERATORS["buffer_sides_swapped"] = buffer_sides_swapped
# the readings of a gray image that `checks/kinds/refusals.py` (`named_refusal`) also weighs on
# gray and other probe images, a raise by its type, where a case that asked a value raised
GRAY_READINGS = ("channel_in_front", "not_promoted", "gray_to_rgb")
# the readings that only raise on a gray image, each with numpy's or Python's own message:
# `named_refusal` pairs one with a guard where the student's message is that message
GRAY_RAISES = ("channel_indexed", "axes_permuted")
