"""Blind round 10 (b10_01, issue 38): counting ported from lucidrains/vit-pytorch (ViT.__init__'s
`pair()` and `assert image_height % patch_height == 0 and ...`) and timm's VisionTransformer
(`class_token: bool = True`, `num_prefix_tokens = 1 if class_token else 0; += reg_tokens`).

Mistakes:
1. num_patches: lucidrains' `assert` as the tiling check, so sizes that do not tile raise
   AssertionError, not ValueError. Shows on every size that does not tile.
2. num_tokens: its optional argument is timm's `class_token`, so `cls_token=False` passed by
   keyword (the API allows it) raises TypeError. Shows only when cls_token is a keyword.

Grader: the assert is observed (the refusal: "refused the input with `assert` (AssertionError),
where ValueError is asked for"); the renamed keyword is observed (signature_differs: "Your
`num_tokens` has no parameter `cls_token`: the student API names it `cls_token`"; before, only the
TypeError, no hint).
Since session 15 a call refused as Python bound its arguments is a named mistake (signature_differs: Python's binding saw the parameters differ) and an `assert` where ValueError is asked for too (refused_with_assert): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'refused_with_assert',
          'token-count': 'signature_differs'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches (lucidrains ViT.__init__)."""
    def _pair(t):
        return t if isinstance(t, tuple) else (t, t)

    image_height, image_width = _pair((H, W))
    patch_height, patch_width = _pair(P)
    assert image_height % patch_height == 0 and image_width % patch_width == 0, \
        'Image dimensions must be divisible by the patch size.'
    return (image_height // patch_height) * (image_width // patch_width)


def num_tokens(H, W, P, class_token=True, reg_tokens=0):
    """Sequence length: patches plus the prefix tokens (timm VisionTransformer.num_prefix_tokens)."""
    num_prefix_tokens = 1 if class_token else 0
    num_prefix_tokens += reg_tokens
    return num_patches(H, W, P) + num_prefix_tokens
