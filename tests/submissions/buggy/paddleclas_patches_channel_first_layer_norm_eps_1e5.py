"""Blind round 17 (b17_13, issue 38): linear_patch_embed and layer_norm ported from PaddleClas'
VisionTransformer (PatchEmbed's NCHW Conv2D weight layout, nn.LayerNorm(epsilon=1e-5)).

Mistakes:
1. linear_patch_embed flattens the patches channel first, (c, p1, p2), before `@ W_e`, whose rows
   are in (p1, p2, c) order: wrong whenever C > 1.
2. layer_norm's default eps is 1e-5 instead of 1e-6.
The student's `_hwc` helper (the solution's `_as_hwc` in all but its message) is called as
`_as_hwc` here: the builder replaces only the solution's own definitions.

Grader: at blind time and now, both named (the tokens paired with W_e's rows channel first; eps
1e-05 instead of 1e-06); kernel-stride gets its equivalence checklist. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first',
          'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def linear_patch_embed(image, W_e, b_e, P):
    """PaddleClas PatchEmbed: NCHW patches flattened (c, p1, p2), then the projection."""
    x = _as_hwc(image).transpose((2, 0, 1))  # NCHW
    C, H, W = x.shape
    num_patches(H, W, P)
    x = x.reshape((C, H // P, P, W // P, P)).transpose((1, 3, 0, 2, 4))  # (gh, gw, C, P, P)
    x = x.reshape((-1, C * P * P))
    return x @ W_e + b_e


def layer_norm(x, gamma, beta, eps=1e-5):
    """nn.LayerNorm(epsilon=1e-5), PaddleClas' norm."""
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta
