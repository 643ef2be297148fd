"""Blind round 47 (b47_09, issue 38): linear_patch_embed ported from a numpy MNIST ViT layer
`embedding_t` (code-search file id 39421259015: `_extract_patches` with the grid size 7 = 28 // 4
hard-coded for both axes, a (P, P, C, d) kernel applied per patch with einsum).

Mistakes:
1. The grid size `g = H // P` is used for both axes: `x.reshape(g, P, g, P, C)` raises
   ValueError on every non-square image. Right for square images.

Grader: at blind time (a4c32119) and now, named: "In `linear_patch_embed` (at the lecture's step
`patchify(image, P)`), `W // P` reads `H` where `W` belongs ... (right only when H == W)." on
linear-patch-embed (visible and hidden); kernel-stride's equivalence check calls this
linear_patch_embed and observes it failing. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:sibling:linear_patch_embed/patchify:W-as-H'}


def linear_patch_embed(image, W_e, b_e, P):
    """embedding_t.forward for one image, with channels: the (P, P, C, d) kernel applied per patch."""
    x = _as_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)                      # ValueError when P does not tile
    g = H // P                                # the 7 of _extract_patches: 28 // 4
    patches = x.reshape(g, P, g, P, C).transpose(0, 2, 1, 3, 4)   # (x, y, i, j, c)
    w = W_e.reshape(P, P, C, -1)
    out = np.einsum('xyijc,ijcd->xyd', patches, w) + b_e
    return out.reshape(g * g, -1)
