"""Blind round 44 (b44_01, issue 38): num_tokens and patch_dim ported from nathanjpaek/kb-pilot,
KernelBench/level9/16933_PatchEmbed.py (class PatchEmbed: `num_patches = img_size // patch_size *
(img_size // patch_size)`, `in_chans=3`).

Mistakes:
1. num_tokens: counts the patches from H alone (`img_size // patch_size * (img_size //
   patch_size)` with img_size = H), a square-image assumption: wrong on non-square images only.
2. patch_dim: returns `in_chans * patch_size * patch_size` with `in_chans=3` fixed; the C
   argument is ignored: wrong whenever C != 3.

Grader: at blind time (0fc72e8) and now, both named: "In `num_tokens` (at the lecture's step
`num_patches(H, W, P)`), `W // P` reads `H` where `W` belongs ... (right only when H == W)" on
token-count's hidden check (the visible checks are square), and "In `patch_dim`, `C` is taken as
its default, 3, whatever is given." on flatten-length. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'token-count': 'op:sibling:num_tokens/num_patches:W-as-H',
    'flatten-length': 'op:default:patch_dim:C-as-default',
}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS]."""
    img_size, patch_size = H, P
    if H % patch_size or W % patch_size:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    num_patches = img_size // patch_size * (img_size // patch_size)
    return num_patches + 1 if cls_token else num_patches

def patch_dim(patch_size, C=3, in_chans=3):
    """Numbers in one flattened patch: what one output channel of the patch conv sees."""
    return in_chans * patch_size * patch_size
