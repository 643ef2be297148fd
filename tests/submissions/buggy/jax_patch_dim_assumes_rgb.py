"""Blind round 37 (b37_11, issue 38): patch_dim and patchify ported from a JAX patchify /
unpatchify helper (code-search file id 13946525348: `x.reshape(B, C, H // p, p, W // p, p)`,
`transpose(0, 2, 4, 3, 5, 1)`, and `p = int((embed / 3) ** .5)`, which assumes RGB).

Mistakes:
1. patch_dim returns P * P * 3: C is ignored (the helper assumes RGB). Right for RGB only.
patchify (through a batch-of-one channel-first reshape) is correct.

Grader: at blind time and now, named: "In `patch_dim`, `C` is taken as its default, 3, whatever
is given." on flatten-length, visible and hidden. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default:patch_dim:C-as-default'}
CORRECT = ('patchify',)


def patch_dim(P, C=3):
    # [B, H'*W', p_H*p_W*C]
    embed = P * P * 3
    return embed


def patchify(image, P):
    """
        Patchify one image (the helper works on a batch [B, C, H, W]).
    """
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)[None]  # [B, C, H, W]
    B = x.shape[0]
    patch_size = P

    x = x.reshape(B, C, H//patch_size, patch_size, W//patch_size, patch_size)
    x = x.transpose(0, 2, 4, 3, 5, 1)    # [B, H', W', p_H, p_W, C]
    x = x.reshape(B, -1, *x.shape[3:])   # [B, H'*W', p_H, p_W, C]
    x = x.reshape(B, x.shape[1], -1)     # [B, H'*W', p_H*p_W*C]

    return x[0]
