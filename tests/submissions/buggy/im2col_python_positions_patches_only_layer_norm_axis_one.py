"""Blind round 82 (b82_09, issue 38): embed_image and layer_norm ported from
SmartPolarBear/im2col_python `test.py` (its conv_patch_embed through view_as_windows is right and
not kept here).

Mistakes:
1. embed_image (line 77 of the file as delivered): `pos[1:]` added to the patch tokens only, then
   [CLS] prepended without `pos[0]`: wrong on every image (vit_forward inherits it).
2. layer_norm (lines 90-91): mean and variance over `axis=1` instead of the last axis: the same
   on 2-D (T, d) input, wrong on batched (B, T, d) input.

Grader: at blind time (ee59f1b1) and now, 98/110. Mistake 1 named on cls-and-positions ("the patches
got pos[1:] and [CLS] got no position at all"); mistake 2 named on layer-norm ("`np.mean(x,
axis=-1, keepdims=True)` taken over axis 1, instead of over axis -1", and the same of `np.var`).
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def embed_image(image, params):
    patch_emb = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    patch_emb = patch_emb + params["pos"][1:]
    cls_token = np.asarray(params["cls"]).reshape(1, -1)
    return np.concatenate((cls_token, patch_emb), axis=0)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
