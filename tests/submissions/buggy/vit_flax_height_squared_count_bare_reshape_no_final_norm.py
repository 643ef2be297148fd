"""Blind round 34 (b34_08, issue 38): num_patches, patchify and vit_forward ported from
vballoli/vit-flax (vit_flax/vit.py ViT.apply: `num_patches = (img_size // patch_size) ** 2`,
`x.reshape(b, c, h, w)` then a reshape to (b, h*w // patch_size**2, c * patch_size**2);
vit_flax/layers.py: a Transformer of PreNorm residuals with no final norm). JAX / old flax.nn.

Mistakes:
1. num_patches: `(img_size // P) ** 2` with img_size = H (a tiling check added): right only for
   square images (num_tokens inherits it).
2. patchify: the source's plain reshapes, `image.reshape(c, h, w).reshape(N, c*P*P)`: no patch
   extraction, channels mixed with pixels (linear_patch_embed and embed_image inherit it).
3. vit_forward: no final LayerNorm (the source's Transformer has none): row 0 of the last block's
   output goes to the head.

Grader: at blind time (5712eea) and now, named: "In `num_patches`, `W // P` reads `H` where `W`
belongs" on patch-count; "image.reshape(N, P*P*C) takes consecutive pixels along a row, not P x P
tiles" on patchify; "The head reads tokens that did not go through the final LayerNorm" on
vit-forward (graded with the grader's patchify standing in); vit-checkpoint observes them. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H', 'patchify': 'patchify_bare_reshape',
          'vit-forward': 'vit_final_ln_skipped'}


def num_patches(H, W, P):
    img_size = H
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (img_size // P) ** 2


def patchify(image, P):
    image = _as_hwc(image)
    h, w, c = image.shape
    if P <= 0 or h % P or w % P:
        raise ValueError(f"patch size {P} does not tile a {h}x{w} image")
    patch = image.reshape(c, h, w)
    patch = patch.reshape((h * w) // (P * P), c * P ** 2)
    return patch


def vit_forward(image, params):
    x = embed_image(image, params)
    # x = Transformer(x, depth, num_heads, dense_dims[0])
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = x[0]
    return x @ params["W_head"] + params["b_head"]
