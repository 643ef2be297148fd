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
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, near_checked, where
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
        "2d-as-rgb", "a 2-D (H, W) `{image}` is made three equal channels, (H, W, 3) (PIL's "
        "`convert('RGB')`, `np.stack([{image}] * 3, -1)`): " + ONE_CHANNEL, gray_as_rgb, True),
    "gray_transposed": (
        "2d-transposed", "a 2-D (H, W) `{image}` is transposed before it gets its channel "
        "axis, (W, H, 1) (`{image}.T[..., None]`: its rows read as columns, as a spectrogram's "
        "time and frequency swapped with AST's `transpose(2, 3)`); (H, W, C) images are right, "
        "and " + ONE_CHANNEL + ", with no transpose", transposed_gray, True),
    "channels_reversed": (
        "channels-reversed", "`{image}`'s channels are read in reverse order, `{image}[..., "
        "::-1]` (OpenCV's BGR for RGB): keep them in the order given", reversed_channels,
        False)}


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
                     ((bound, function),))

    operator.__doc__ = f"`as_hwc(image)` read as {function.__name__} does."
    return operator


OPERATORS = {name: _reading(name) for name in READINGS}  # tried after contractions.OPERATORS
# the readings of a gray image that `checks/kinds/refusals.py` (`named_refusal`) also weighs on
# gray and other probe images, a raise by its type, where a case that asked a value raised
GRAY_READINGS = ("channel_in_front", "not_promoted", "gray_to_rgb")
# the readings that only raise on a gray image, each with numpy's or Python's own message:
# `named_refusal` pairs one with a guard where the student's message is that message
GRAY_RAISES = ("channel_indexed", "axes_permuted")
