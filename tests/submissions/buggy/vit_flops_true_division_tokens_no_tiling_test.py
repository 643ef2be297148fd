"""Blind round 45 (b45_01, issue 38): num_tokens ported from a ViT FLOPs script,
`calculate_vit_flops(batch_size, h, w, n_channels, patch_size, ...)` (code-search file id
8884769296: `n_patches = (h / patch_size) * (w / patch_size)`).

Mistakes:
1. The count uses true division, `(H / P) * (W / P)`, so it is a float (197.0, 576.0) where
   an int is asked for.
2. There is no tiling test: a size P does not tile returns a float ((7, 8, 2) gives 15.0)
   instead of raising ValueError.

Grader: at blind time (fe6e9573), mistake 1 named ("the count ... comes out as a float (a
number ending in .0), as `/`, `math.pow` or a float constant make it"), on both visible checks
and the hidden one; mistake 2 only observed, by the hidden non-tiling check's checklist
("Patches that do not tile the image must raise ValueError, with or without [CLS]."). Since
name45a both named: the float count as before, and on the non-tiling check the pair of
tiling.true_division with the missing test ("2 mistakes at once: (1) ... there is no tiling
test ... (2) ... the patches are counted with true division, `(H / P) * (W / P)` ..."). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:tiling:num_tokens/num_patches:none'
                         '+op:true_division:num_tokens/num_patches:count-by-true-division'}
ALIASES = ('op:count_as_float:num_tokens:count-as-float',)  # the float alone, on tiling sizes


def num_tokens(H, W, P, cls_token=True):
    # total number of patches
    n_patches = (H / P) * (W / P)
    if cls_token:
        return n_patches + 1
    return n_patches
