"""Blind round 62 (b62_06, issue 38): patchify and vit_forward ported from hpcaitech/Open-Sora
`opensora/models/layers/blocks.py` (PatchEmbed3D.forward for one frame: W and H padded up to a
multiple of the patch; FinalLayer's `LayerNorm(elementwise_affine=False)`).

Mistakes:
7. patchify (lines 33-37 of the file as delivered): W and H zero-padded up to a multiple of P (as
   PatchEmbed3D does) instead of raising ValueError. Wrong only for sizes that do not tile (10 x
   10 with P = 4 gives 9 patches); linear_patch_embed inherits it.
8. vit_forward (lines 119-120): the final norm is FinalLayer's affine-free LayerNorm,
   `layer_norm(x, ones, zeros)`: ln_g and ln_b ignored. Wrong whenever ln_g != 1 or ln_b != 0.

Grader: at blind time (90d6c97e) and now, 96/110, both named. Mistake 7 on patchify's errors and
random not-tiling checks ("In `patchify`, the image is zero-padded at the bottom and right to a
multiple of `P` before it is cut ... raise ValueError instead of padding."). Mistake 8 on
vit-forward's two checks ("In `vit_forward` (at the model solution's step `layer_norm(x,
params['ln_g'], params['ln_b'])`), the normalisation is used without its learned scale and shift
..."); vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-to-tile',
          'vit-forward': 'op:affine_not_passed:vit_forward/layer_norm:affine-not-passed'}


def patchify(image, P):
    """PatchEmbed3D.forward for one frame."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image")
    H, W, C = x.shape
    if W % P != 0:
        x = np.pad(x, ((0, 0), (0, P - W % P), (0, 0)))
    if H % P != 0:
        x = np.pad(x, ((0, P - H % P), (0, 0), (0, 0)))
    H, W, C = x.shape
    x = x.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(-1, P * P * C)


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    d = x.shape[-1]
    x = layer_norm(x, np.ones(d), np.zeros(d), eps=1e-6)
    return x[0] @ params["W_head"] + params["b_head"]
