"""Blind round 58 (b58_15, issue 38): num_patches and softmax ported from
facebookresearch/SlowFast `slowfast/models/stem_helper.py` (PatchEmbed) and
`slowfast/models/attention.py` (MultiScaleAttention's `attn.softmax(dim=-1)`, written out as
`np.exp(x) / sum`).

Mistakes:
23. num_patches (line 11 of the file as delivered) returns `H * W / P ** 2`: true division gives
    a float (196.0 for 224, 224, 16). num_tokens calls it and returns a float too. Wrong on every
    input in its type, not its value; sizes that do not tile still raise ValueError.
24. softmax (line 78) takes `np.exp(x)` with no max subtracted. Wrong only for large inputs
    (near 1000: exp overflows, nan).

Grader: at blind time (ba46f523) and now, 101/110, both named. Mistake 23 on patch-count's
three value checks ("The number is right but it is a float: HW/P**2 with `/` gives 196.0. A count
is an integer; use `//`." on the lecture's sizes, "A count is an integer: use `//`, not `/`."
elsewhere); token-count keeps full marks around it. Mistake 24 on stable-softmax's "no overflow
near 1000" and random checks ("exp overflowed: exp(1000) is inf in floating point, and inf / inf
is nan. Subtract the maximum along the axis first ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'stable-softmax': 'softmax_without_max'}


def num_patches(H, W, P):
    """Number of P x P patches of an H x W image."""
    if H % P != 0 or W % P != 0:
        raise ValueError("patch stride must divide the input size")
    return H * W / P ** 2


def softmax(x, axis=-1):
    """Numerically stable softmax along `axis`."""
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
