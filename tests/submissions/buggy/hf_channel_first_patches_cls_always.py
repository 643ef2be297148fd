"""Blind round 6 (b6_07, issue 38): linear_patch_embed as HuggingFace's ViTPatchEmbeddings (a Conv2d
on a channels-first image, then flatten(2).transpose(1, 2)), ported to numpy by flattening each
patch channel-first; num_tokens as HF's `num_positions = num_patches + 1`.

Mistakes:
1. linear_patch_embed: flattens each patch in (c, p1, p2) order (PyTorch conv weight layout)
   instead of (p1, p2, c). Shows only with more than one channel (gray images are right).
2. num_tokens: always adds one for [CLS], ignoring cls_token. Shows only with cls_token=False.

Grader: Both are named; kernel-stride's property (kernel P, stride P equals the linear map) fails
with its checklist, which names patchify's flatten order in linear_patch_embed; vit-checkpoint
gives its checklist.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always', 'linear-patch-embed': 'linear_embed_channel_first'}


def num_tokens(H, W, P, cls_token=True):
    """num_positions = num_patches + 1."""
    return num_patches(H, W, P) + 1


def linear_patch_embed(image, W_e, b_e, P):
    """Conv2d(kernel=P, stride=P) as a matrix product, channels first like PyTorch."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)                               # (C, H, W)
    x = x.reshape(C, H // P, P, W // P, P).transpose(1, 3, 0, 2, 4)
    x = x.reshape((H // P) * (W // P), C * P * P)              # (N, C*P*P)
    return x @ W_e + b_e
