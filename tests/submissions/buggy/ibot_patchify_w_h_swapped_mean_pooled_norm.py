"""Blind round 61 (b61_06, issue 38): patchify and vit_forward ported from bytedance/ibot
`models/vision_transformer.py` (VisionTransformer.prepare_tokens' `B, nc, w, h = x.shape` naming
carried over to an (H, W, C) image; forward's `use_mean_pooling` head).

Mistakes:
9. patchify (lines 32 and 36 of the file as delivered): `w, h, nc = x.shape`, so `w` is the
   height, then `reshape(h0, P, w0, P, nc)` = (W/P, P, H/P, P, C): the patches scrambled. Wrong
   only when H != W; linear_patch_embed, embed_image and vit_forward inherit it.
10. vit_forward (lines 115-116): `use_mean_pooling`: the final layer norm is applied to the mean
    of the patch tokens, which replaces the [CLS] row. Wrong on any input.

Grader: at blind time (90d6c97e) and now, 92/110, both named. Mistake 9 on patchify's three checks
(at blind time "In `patchify`, `image.reshape(H // P, P, W // P, P, C)` is given `H // P` and `W //
P` the other way round ..."; now: "In `patchify`, the model solution's `image.reshape(H // P, P, W
// P, P, C)` is given its `H // P` and `W // P` the other way
round ..."). Mistake 10 on vit-forward's two checks (at blind time "In `vit_forward`,
`layer_norm(x, params['ln_g'], params['ln_b'])` comes after a pooling: `x[0]` is read as
`x[1:].mean(axis=0)`, the rows after row 0 averaged ..."; the sentence's last clause, "instead of
every row before row 0 is read", garbled at blind time, is being mended: its words, not its
mistake; now: "In `vit_forward`, `x[0]` is read as `x[1:].mean(axis=0)`: the rows after row 0
averaged ... and that order is no part of the mistake"). vit-checkpoint observes vit_forward. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-after-before-layer_norm'}


def patchify(image, P):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    w, h, nc = x.shape
    num_patches(w, h, P)
    w0 = w // P
    h0 = h // P
    x = x.reshape(h0, P, w0, P, nc).transpose(0, 2, 1, 3, 4)
    return x.reshape(w0 * h0, P * P * nc)


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = x.copy()
    x[0] = layer_norm(x[1:, :].mean(0), params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
