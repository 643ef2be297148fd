"""From an image to a token sequence (lecture 4.2, section 3 steps 1-4; Lab 4; Practice 7).

Images are (H, W, C), channels last; a 2-D (H, W) image is one channel. Patches are numbered
in raster order over the grid and flattened in (row, column, channel) order.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .counting import as_int, check_patch_size, check_tiling
from .layers import linear


def as_hwc(image):  # [H, W] or [H, W, C] -> [H, W, C]
    """The image as a 3-D array, a 2-D one getting a single channel; ValueError otherwise."""
    image = np.asarray(image)  # [H, W] or [H, W, C]
    if image.ndim not in (2, 3):
        raise ValueError(f"an image is (H, W) or (H, W, C), got an array of shape {image.shape}")
    return image[..., None] if image.ndim == 2 else image  # [H, W, C]


def patchify(image, P):  # [H, W, C] -> [N, P*P*C]
    """The P x P patches of one image in raster order, one row each, flattened as (p1, p2, c)."""
    image = as_hwc(image)  # [H, W, C]
    H, W, C = image.shape
    H, W, P = check_tiling(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C)  # [rows, p1, cols, p2, C]
    grid = grid.transpose(0, 2, 1, 3, 4)  # [rows, cols, p1, p2, C]
    return grid.reshape((H // P) * (W // P), P * P * C)  # [N, P*P*C]


def linear_patch_embed(image, W_e, b_e, P):  # [H, W, C], [P*P*C, d], [d] -> [N, d]
    """Patch embedding as a linear map: patchify(image, P) @ W_e + b_e."""
    return linear(patchify(image, P), W_e, b_e)  # [N, d]


def conv_patch_embed(image, K, b, stride):  # [H, W, C], [k, k, C, d], [d] -> [H', W', d]
    """Valid cross-correlation: out[i, j] = sum(window at (i*stride, j*stride) * K) + b.

    Computed directly from sliding windows, not through patchify, so that it is an independent
    check of the kernel/stride equivalence. H' = (H - k) // stride + 1 (floors), W' likewise.
    """
    image, K = as_hwc(image), np.asarray(K)  # [H, W, C], [k, k, C, d]
    stride = _check_conv(image.shape, K.shape, stride)
    windows = sliding_window_view(image, K.shape[:2], axis=(0, 1))  # [H-k+1, W-k+1, C, k, k]
    windows = windows[::stride, ::stride]  # [H', W', C, k, k]
    return np.tensordot(windows, K, axes=([3, 4, 2], [0, 1, 2])) + b  # [H', W', d]


def _check_conv(image_shape, kernel_shape, stride):  # -> stride as int
    if len(kernel_shape) != 4:
        raise ValueError(f"a kernel is (k, k, C, d), got shape {kernel_shape}")
    (H, W, C), (kh, kw, kc, _) = image_shape, kernel_shape
    if kc != C:
        raise ValueError(f"kernel has {kc} input channels but the image has {C}")
    if kh > H or kw > W:
        raise ValueError(f"a {kh}x{kw} kernel does not fit in a {H}x{W} image")
    stride = as_int("stride", stride)
    if stride <= 0:
        raise ValueError(f"stride must be positive, got {stride}")
    return stride


def conv_equivalent(P):  # -> (kernel_size, stride)
    """The convolution equal to the patch linear map: kernel P, stride P (patches tile)."""
    P = check_patch_size(P)
    return (P, P)


def embed_image(image, params):  # [H, W, C] -> [N+1, d]
    """The token sequence entering the transformer; params keys P, W_e, b_e, cls, pos."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # [N, d]
    check_positions(len(x) + 1, params["pos"])
    x = np.vstack([params["cls"], x])  # [N+1, d], [CLS] is token 0
    return x + params["pos"]  # [N+1, d]


def check_positions(T, pos):
    """ValueError unless pos has one row per token (T = patches + [CLS])."""
    if np.shape(pos)[0] != T:
        raise ValueError(f"pos has {np.shape(pos)[0]} rows but the image makes {T} tokens "
                         f"(patches + [CLS])")
