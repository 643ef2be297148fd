"""Blind round 52 (b52_07, issue 38): patchify and linear_patch_embed ported from torchvision
`vision_transformer.py` `_process_input` (channels first, conv_proj's weight laid out
(d, c, p, p)) and torch `nn.Linear` (y = x A^T + b).

Mistakes:
1. patchify works in (c, h, w) and flattens each patch as (c, p1, p2), where the API wants
   (p1, p2, c). Shows only when C > 1; C = 1 and gray images are right. Non-tiling sizes still
   raise ValueError.
2. linear_patch_embed: `x @ W_e.T + b_e`. When P*P*C != d it raises ValueError (matmul shapes),
   where the API returns; when P*P*C == d it returns wrong values. embed_image and vit_forward
   inherit this.

Grader: at blind time (db53909c), mistake 1 named ("You flattened each patch channel first,
(c, p1, p2). That is the order of torch's Conv2d weights (d, C, P, P), not the course's ..."),
mistake 2 only the checklist on linear-patch-embed's three failing checks ("linear_patch_embed(
image, W_e, b_e, P) is patchify(image, P) @ W_e + b_e: one row per patch in raster order, ...
times W_e (P*P*C, d), plus the bias b_e: shape (N, d).") and kernel-stride's observation ("Your
`linear_patch_embed` failed on the inputs this property gives it, so the property could not be
judged ...").
Now named: both. Mistake 2 on every linear-patch-embed check ("In `linear_patch_embed` (at the
lecture's step `linear(patchify(image, P), W_e, b_e)`), `W_e` is used transposed, `x @ W_e.T`
(torch's nn.Linear stores its weight as (d, P*P*C)); the lecture's `W_e` is (P*P*C, d) and
multiplies from the right as it is: `x @ W_e` (where its two sizes differ, numpy's matmul refuses
the transposed one with ValueError)."): weights.py names the weight, `W_e-axes-swapped` no longer
says the same rewrite again, and "RGB images, with a bias" has a square map (P*P*C == d, as
ViT-B/16's 768 -> 768) where the code returns values. kernel-stride's property still observes
the raise, now "in `linear_patch_embed`'s own code".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'linear-patch-embed': 'op:transpose:linear_patch_embed/linear:W.T-added'}


def patchify(image, P):
    """(H, W, C) image -> (N, P*P*C) flattened patches, raster order."""
    image = _as_hwc(image)
    x = image.transpose(2, 0, 1)  # (c, h, w)
    c, h, w = x.shape
    p = P
    if h % p != 0:
        raise ValueError(f"Wrong image height! {h} is not a multiple of {p}")
    if w % p != 0:
        raise ValueError(f"Wrong image width! {w} is not a multiple of {p}")
    n_h = h // p
    n_w = w // p
    # (c, h, w) -> (n_h, n_w, c, p, p)
    x = x.reshape(c, n_h, p, n_w, p).transpose(1, 3, 0, 2, 4)
    # (n_h, n_w, c, p, p) -> ((n_h * n_w), c * p * p)
    return x.reshape(n_h * n_w, c * p * p)


def linear_patch_embed(image, W_e, b_e, P):
    """Applies a linear transformation to the flattened patches: y = xA^T + b."""
    x = patchify(image, P)
    return x @ W_e.T + b_e
