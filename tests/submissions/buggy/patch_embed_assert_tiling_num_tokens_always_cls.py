"""Blind round 55 (b55_04, issue 38): num_patches and num_tokens ported from a PyTorch
`PatchEmbed.__init__` (find_string id 53226912575): `assert img_size[0] % patch_size == 0 and
img_size[1] % patch_size == 0`, `num_patches = (img_size[0] // patch_size) * (img_size[1] //
patch_size)`, and the pos_embed length `num_patches + 1`.

Mistakes:
1. num_patches checks the tiling with the source's `assert`: a size that does not tile ((10, 8,
   4), (8, 10, 4), (10, 10, 4)) raises AssertionError, not ValueError; num_tokens and patchify on
   a non-tiling image follow it. Sizes that tile give the right int.
2. num_tokens returns `num_patches(H, W, P) + 1`, the pos_embed length, ignoring
   `cls_token=False`: (224, 224, 16) gives 197, not 196. The default (cls_token=True) is right.

Grader: at blind time (cdc1de9a) and now, both named. Mistake 1 on patch-count's "patches that do
not tile raise ValueError" and its hidden check ("Your code refused the input with `assert`
(AssertionError), where ValueError is asked for: an assert is no input check (python -O skips
it); write `raise ValueError(...)`."). Mistake 2 on token-count's "without [CLS]" ("With
cls_token=False there is no [CLS] row: the sequence is just the N patches.") and its hidden check
("No [CLS] token when cls_token is false."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'refused_with_assert',
          'token-count': 'cls_always'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image."""
    img_size, patch_size = (H, W), P
    assert img_size[0] % patch_size == 0 and img_size[1] % patch_size == 0
    num_patches = (img_size[0] // patch_size) * (img_size[1] // patch_size)
    return num_patches


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer."""
    return num_patches(H, W, P) + 1
