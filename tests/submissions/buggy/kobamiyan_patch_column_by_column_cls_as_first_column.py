"""Blind round 21 (b21_13, issue 38): patchify and vit_forward ported from
Kobamiyannnn/vit_implementation (a Japanese tutorial ViT: batched (B, N, D) tensors throughout,
`z_0 = x[:, 0]` for the class token, reshape/permute patch splitting).

Mistakes:
1. patchify permutes the patch axes as (0, 2, 3, 1, 4) instead of (0, 2, 1, 3, 4): each patch is
   flattened column by column, (p2, p1, c), instead of row by row.
2. vit_forward takes the class token as `z[:, 0]` (the batched idiom: the first column of every
   token) instead of `z[0]`: a shape error when T != d, wrong logits when T == d.

Grader: at blind time and now, both named: the patch transposed, and `x[:, 0]` read where `x[0]`
belongs; vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_patch_transposed', 'vit-forward': 'op:index:vit_forward:x[:,0]'}


def patchify(image, P):
    z = _as_hwc(image)
    H, W, C = z.shape
    n = num_patches(H, W, P)
    z = z.reshape(H // P, P, W // P, P, C)
    z = z.transpose(0, 2, 3, 1, 4)
    return z.reshape(n, P * P * C)


def vit_forward(image, params):
    z = embed_image(image, params)
    for blk in params["blocks"]:
        z = encoder_block(z, blk, params["heads"])
    z = layer_norm(z, params["ln_g"], params["ln_b"])
    cls_token = z[:, 0]
    return cls_token @ params["W_head"] + params["b_head"]
