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
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError(f"an image is (H, W) or (H, W, C), got an array of shape {image.shape}")
    return image[..., None] if image.ndim == 2 else image


def patchify_batch(images, P):  # [B, H, W, C] -> [B, N, P*P*C]
    """Cut every image into its P x P patches, in raster order, each flattened as (p1, p2, c)."""
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError(f"a batch of images is (B, H, W, C), got an array of shape {images.shape}")
    B, H, W, C = images.shape
    H, W, P = check_tiling(H, W, P)
    grid = images.reshape(B, H // P, P, W // P, P, C)  # [B, rows, p1, cols, p2, C]
    grid = grid.transpose(0, 1, 3, 2, 4, 5)  # [B, rows, cols, p1, p2, C]
    return grid.reshape(B, (H // P) * (W // P), P * P * C)


def patchify(image, P):  # [H, W, C] -> [N, P*P*C]
    """The flattened P x P patches of one image, one row per patch."""
    return patchify_batch(as_hwc(image)[None], P)[0]


def linear_patch_embed(image, W_e, b_e, P):  # [H, W, C], [P*P*C, d], [d] -> [N, d]
    """Patch embedding as a linear map: patchify(image, P) @ W_e + b_e."""
    return linear(patchify(image, P), W_e, b_e)


def conv_patch_embed(image, K, b, stride):  # [H, W, C], [k, k, C, d], [d] -> [H', W', d]
    """Valid cross-correlation: out[i, j] = sum(window at (i*stride, j*stride) * K) + b.

    Computed directly from sliding windows, not through patchify, so that it is an independent
    check of the kernel/stride equivalence. H' = (H - k) // stride + 1 (floors), W' likewise.
    """
    image, K = as_hwc(image), np.asarray(K)
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


def embed_patches(patches, W_e, b_e, cls, pos):  # [..., N, P*P*C] -> [..., N+1, d]
    """Linear map of each patch, [CLS] prepended as row 0, then positions added."""
    x = linear(patches, W_e, b_e)  # [..., N, d]
    cls = np.broadcast_to(cls, (*x.shape[:-2], 1, x.shape[-1]))  # [..., 1, d]
    return np.concatenate([cls, x], axis=-2) + pos  # [..., N+1, d]


def embed_image(image, params):  # [H, W, C] -> [N+1, d]
    """The token sequence entering the transformer; params keys P, W_e, b_e, cls, pos."""
    patches = patchify(image, params["P"])  # [N, P*P*C]
    _check_positions(len(patches) + 1, params["pos"])
    return embed_patches(patches, params["W_e"], params["b_e"], params["cls"], params["pos"])


def _check_positions(T, pos):
    if np.shape(pos)[0] != T:
        raise ValueError(f"pos has {np.shape(pos)[0]} rows but the image makes {T} tokens "
                         f"(patches + [CLS])")
