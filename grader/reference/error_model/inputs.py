"""Operators on how a function reads its image: a 2-D (H, W) image given its one channel axis
in front, (1, H, W), as channel-first code does (torch's `unsqueeze(0)`, MONAI's
`EnsureChannelFirst`), a 2-D image not given a channel axis at all (`H, W, C =
image.shape` or `C = image.shape[-1]` on a grayscale image) or made three equal channels
(PIL's `convert("RGB")`), and the channels read in reverse order (OpenCV's BGR). The
reference reads every image through `as_hwc`, which the model never rewrites inside (it also
refuses bad shapes, the student's own checks); these rewrite its call. Each is an operator as
in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, where
from .tree import PREFIX

PROMOTES = "as_hwc"  # the reference's helper that gives a 2-D image its channel axis, last


def channel_in_front(image):
    """A 2-D image [H, W] as [1, H, W], any other as it is (an array)."""
    image = np.asarray(image)
    return image[None] if image.ndim == 2 else image


def channel_in_front_of(context: Context, node: ast.AST) -> Iterator[Change]:
    """`as_hwc(image)` with the 2-D image's new axis put first, (1, H, W), where the lecture
    puts it last, (H, W, 1)."""
    if not (isinstance(node, ast.Call) and callee(node) == PROMOTES and len(node.args) == 1):
        return
    bound = f"{PREFIX}channel_in_front"
    image = code(node.args[0])
    yield Change(f"{image}-2d-channel-first",
                 f"In {where(context)}, a 2-D (H, W) `{image}` gets its channel axis in front, "
                 f"(1, H, W), as channel-first code does (`{image}[None]`, torch's "
                 f"`unsqueeze(0)`); the lecture's images are (H, W, C), so a 2-D one is "
                 f"(H, W, 1): `{image}[..., None]`.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), list(n.args), []),
                 ((bound, channel_in_front),))


def not_promoted(context: Context, node: ast.AST) -> Iterator[Change]:
    """`as_hwc(image)` left out: a 2-D image read as it is, its width taken for the channels
    or its shape unpacked into three names."""
    if not (isinstance(node, ast.Call) and callee(node) == PROMOTES and len(node.args) == 1):
        return
    bound = f"{PREFIX}asarray"
    image = code(node.args[0])
    yield Change(f"{image}-2d-not-promoted",
                 f"In {where(context)}, a 2-D (H, W) `{image}` is read as it is, with no channel "
                 f"axis (its last axis, the width, taken for the channels, or its shape "
                 f"unpacked into H, W, C): a 2-D image is one channel, (H, W, 1), "
                 f"`{image}[..., None]`.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), list(n.args), []),
                 ((bound, np.asarray),))


def gray_as_rgb(image):
    """A 2-D image [H, W] as three equal channels [H, W, 3], any other as it is (an array)."""
    image = np.asarray(image)
    return np.stack([image] * 3, axis=-1) if image.ndim == 2 else image


def gray_to_rgb(context: Context, node: ast.AST) -> Iterator[Change]:
    """`as_hwc(image)` with a 2-D image made three equal channels, PIL's `convert("RGB")` or
    `np.stack([img] * 3, -1)` as a pretrained pipeline does, where a 2-D image is one channel."""
    if not (isinstance(node, ast.Call) and callee(node) == PROMOTES and len(node.args) == 1):
        return
    bound = f"{PREFIX}gray_as_rgb"
    image = code(node.args[0])
    yield Change(f"{image}-2d-as-rgb",
                 f"In {where(context)}, a 2-D (H, W) `{image}` is made three equal channels, "
                 f"(H, W, 3) (PIL's `convert('RGB')`, `np.stack([{image}] * 3, -1)`): a 2-D "
                 f"image is one channel, (H, W, 1), `{image}[..., None]`.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), list(n.args), []),
                 ((bound, gray_as_rgb),))


def reversed_channels(image):
    """The image [H, W, C] with its channels in reverse order (RGB read as BGR)."""
    return image[..., ::-1]


def channels_reversed(context: Context, node: ast.AST) -> Iterator[Change]:
    """`as_hwc(image)` with its channels in reverse order: OpenCV's BGR for RGB, `img[...,
    ::-1]` (right for one channel only)."""
    if not (isinstance(node, ast.Call) and callee(node) == PROMOTES and len(node.args) == 1):
        return
    bound = f"{PREFIX}reversed_channels"
    image = code(node.args[0])
    yield Change(f"{image}-channels-reversed",
                 f"In {where(context)}, `{image}`'s channels are read in reverse order, "
                 f"`{image}[..., ::-1]` (OpenCV's BGR for RGB): keep them in the order given.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                 ((bound, reversed_channels),))


OPERATORS = {"channel_in_front": channel_in_front_of, "not_promoted": not_promoted,
             "gray_to_rgb": gray_to_rgb,
             "channels_reversed": channels_reversed}  # tried after contractions.OPERATORS
