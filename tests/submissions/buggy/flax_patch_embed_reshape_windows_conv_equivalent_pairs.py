"""Blind round 40 (b40_12, issue 38): conv_patch_embed and conv_equivalent ported from a
Flax PatchEmbed module (code-search file id 42559947652: nn.Conv(kernel_size=(p, p),
strides=(p, p), padding="VALID"), then a reshape to tokens).

Mistakes:
1. conv_patch_embed: the windows are cut by a non-overlapping reshape, `x[:Hp * k, :Wp * k]
   .reshape(Hp, k, Wp, k, C)`, as if stride == k: windows k apart where stride != k, or numpy's
   reshape ValueError where the crop holds fewer than Hp * Wp tiles; right when stride == k
   (tiling or not: the crop floors).
2. conv_equivalent: returns Flax-style pairs ((P, P), (P, P)) instead of (P, P).

Grader: at blind time (b589706), mistake 2 named ("each number of the result `(P, P)` is
written as a (height, width) pair") on its visible and hidden checks; mistake 1 observed only:
the several-kernels check showed the reshape ValueError with the checklist, the hidden check its
checklist. Now mistake 1 is named too (grid_cuts.stride_as_tiles) on the several-kernels and
hidden checks: "the windows are cut as non-overlapping k x k tiles by a reshape, `x[:H' * k,
:W' * k].reshape(H', k, W', k, C)` ... as if the stride were k", the reshape's refusal
reproduced; conv_equivalent's pairs stay named on their checks. Every mistake named, so in
buggy/ (EXPECT holds the convolution's name: one per exercise).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stride_as_tiles:conv_patch_embed:windows-cut-as-tiles'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    x = _as_hwc(image).astype(float)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Hp = (H - k) // stride + 1
    Wp = (W - k) // stride + 1
    # padding="VALID": drop the rows and columns the last window does not reach
    x = x[:Hp * k, :Wp * k]
    windows = x.reshape(Hp, k, Wp, k, C).transpose(0, 2, 1, 3, 4)   # (Hp, Wp, k, k, C)
    return np.einsum("ijabc,abcd->ijd", windows, K) + b


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    kernel_size = (P, P)
    strides = (P, P)
    return (kernel_size, strides)
