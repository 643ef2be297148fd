"""Blind round 53 (b53_09, issue 38): linear_patch_embed ported from nathanjpaek/kb-pilot,
KernelBench/KernelBench/level9/12952_ImgPatches.py (`nn.Conv2d(input_channel, dim,
kernel_size=patch_size, stride=patch_size)` then `.flatten(2).transpose(1, 2)`): a conv with a
PyTorch (out, in, kH, kW) weight, done as an einsum on a CHW image.

Mistakes:
1. `W_e.T.reshape(dim, C, P, P)` reads W_e's rows in (c, p1, p2) order where the API flattens in
   (p1, p2, c): wrong when C > 1 only; C = 1 and gray images are right, non-square too.
   embed_image and vit_forward inherit it (for C > 1).

Grader: at blind time (0ec6739e) and now, named on linear-patch-embed ("Your tokens pair each
patch's values with W_e's rows channel first, (c, p1, p2): torch's weight order, not the course's.
W_e's rows follow patchify's (p1, p2, c) flatten: flatten each patch as patchify does (or, built on
a convolution, read W_e as a (P, P, C, d) kernel and check that the convolution reads each window
that way)."); kernel-stride (its check of linear_patch_embed and conv_patch_embed together) and
vit-checkpoint observe linear_patch_embed. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first'}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    img = _as_hwc(image).transpose(2, 0, 1)                 # (C, H, W)
    input_channel, H, W = img.shape
    num_patches(H, W, P)
    dim = W_e.shape[1]
    weight = W_e.T.reshape(dim, input_channel, P, P)
    patches = img.reshape(input_channel, H // P, P, W // P, P)
    out = np.einsum("chpwq,dcpq->dhw", patches, weight) + b_e[:, None, None]
    return out.reshape(dim, -1).T                             # flatten(2).transpose(1, 2)
