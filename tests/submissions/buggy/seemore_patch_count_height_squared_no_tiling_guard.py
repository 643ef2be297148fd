"""Blind round 53 (b53_01, issue 38): num_patches ported from AviSoori1x/seemore,
modules/patch_embeddings.py (`self.num_patches = (img_size // patch_size) ** 2`, img_size = H).

Mistakes:
1. It counts from H only, `(H // P) ** 2`: right for square images only (num_patches(4, 8, 2)
   returns 4, not 8).
2. No tiling guard: it floors where the API raises ValueError (num_patches(10, 10, 4) returns 4);
   P = 0 raises ZeroDivisionError. num_tokens inherits both; patchify still raises (its reshape
   fails).

Grader: at blind time (0ec6739e) and now, both named on patch-count: M1 ("In `num_patches`, `W // P`
reads `H` where `W` belongs: `H // P`, a copy of its sibling term (right only when H == W)."), M1
and M2 together on the sizes that do not tile ("2 mistakes at once: (1) In `num_patches`, there is
no tiling test: it refuses no size: a 30 x 32 image with P = 16 gets a count. P x P patches tile an
H x W image only when P divides both H and W: raise ValueError when P does not divide H or W. (2) In
`num_patches`, `W // P` reads `H` where `W` belongs ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:sibling:num_patches:W-as-H'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    img_size, patch_size = H, P
    num_patches = (img_size // patch_size) ** 2
    return num_patches
