"""Blind round 38 (b38_14, issue 38): a ViT study note (code-search file id 56244801483:
`self.num_patches = (img_size // patch_size) ** 2  # N = (H/P)*(W/P)`); conv_equivalent written
as the note's Conv2d(kernel_size=patch_size, stride=patch_size), right (CORRECT).

Mistakes:
1. num_patches: `(H // P) ** 2` (the square-image convention), the ValueError kept: right for
   square images only; num_tokens inherits it (graded with the grader's num_patches).

Grader: at blind time (60400f1) and now, named: "`W // P` reads `H` where `W` belongs: `H // P`,
a copy of its sibling term (right only when H == W)" on patch-count. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H'}
CORRECT = ('conv_equivalent',)


def num_patches(H, W, P):
    """N = (H/P)*(W/P), as PatchEmbed's num_patches."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) ** 2


def conv_equivalent(P):
    """Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)."""
    kernel_size, stride = P, P
    return (kernel_size, stride)
