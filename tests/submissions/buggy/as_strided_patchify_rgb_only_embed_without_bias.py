"""Blind round 6 (b6_12, issue 38): patchify with numpy stride tricks (as_strided over an (H, W, C)
array), and linear_patch_embed that drops the bias (nn.Linear(bias=False) style).

Mistakes:
1. patchify: assumes a 3-D image (H, W, C = image.shape) and raises ValueError ("not enough values
   to unpack" is caught as a shape error) for 2-D gray images; 4-D arrays still raise. Shows only on
   2-D (gray) images.
2. linear_patch_embed: returns patchify(image, P) @ W_e without + b_e. Shows whenever b_e != 0.

Grader: The bias is named; kernel-stride's property checklist names the + b_e of
linear_patch_embed. Since session 17 patchify's refusal is named (op:guarded:...:gray-refused,
error_model/guards.py: "`patchify` refuses a 2-D (H, W) gray image"): the guard raises on
exactly the calls the code raised on, the check's and the gray and 1-4 channel probe images,
and returns the reference's value on every other; the worked example (a 2-D image) keeps its
checklist.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:guarded:patchify:gray-refused', 'linear-patch-embed': 'linear_embed_bias_forgotten'}


def patchify(image, P):
    """Patches by stride tricks: a (H/P, W/P, P, P, C) view, then one reshape."""
    image = np.ascontiguousarray(image)
    try:
        H, W, C = image.shape
    except ValueError:
        raise ValueError(f"an image is (H, W, C), got shape {image.shape}") from None
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    s0, s1, s2 = image.strides
    view = np.lib.stride_tricks.as_strided(
        image, shape=(H // P, W // P, P, P, C), strides=(P * s0, P * s1, s0, s1, s2))
    return view.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d)."""
    return patchify(image, P) @ W_e
