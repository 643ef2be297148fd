"""Blind round 78 (b78_08, issue 38): patchify and layer_norm ported from changsn/SparseDiT
`models.py` (DiT's patchify and its LayerNorm).

Mistakes:
1. patchify (line 47 of the file as delivered): `h = w = H // p`, DiT's square grid (from its
   unpatchify): right for square images; for a non-square one the reshape raises "cannot
   reshape", a ValueError on valid input; linear_patch_embed, embed_image and vit_forward fail
   with it.
2. layer_norm (lines 92-93): the mean and variance over `axis=1`: the last axis of a (T, d)
   input, so 2-D calls and the forward pass are right; wrong on batched (..., T, d) input.

Grader: at blind time (ddfccf96) and now, 102/110. Mistake 1 named on patchify ("In `patchify`,
the model solution's `W // P` reads `H` where `W` belongs: a copy of its sibling term (right
only when H == W)."), mistake 2 on layer-norm's hidden check ("your values are the model
solution's with `np.mean(x, axis=-1, keepdims=True)` taken over axis 1, instead of over axis
-1", and the same for var). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:W-as-H',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def patchify(image, P):
    """
    image: (H, W, C)
    x: (T, patch_size**2 * C)
    """
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, c = x.shape
    num_patches(H, W, P)
    p = P
    h = w = H // p
    x = x.transpose(2, 0, 1)                       # (C, H, W)
    x = x.reshape(c, h, p, w, p)
    x = np.einsum('chpwq->hwpqc', x)
    return x.reshape(h * w, p * p * c)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(1, keepdims=True)
    var = ((x - mean) ** 2).mean(1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
