"""Blind round 50 (b50_06, issue 38): patchify after torch's `F.unfold(x, kernel_size=P,
stride=P).transpose(-1, -2)` patch layout (channels first), and linear_patch_embed after
mdmhriday/vision-transformers, models/components/patch_embedding/patch_embedding_vit.py (a
`Conv2d(kernel_size=P, stride=P)` then `flatten(2).transpose(1, 2)`), built on the solution's
conv_patch_embed with `K = W_e.reshape(P, P, C, d)`.

Mistakes:
1. patchify flattens each patch in (c, p1, p2) order (unfold's layout) instead of (p1, p2, c):
   C = 1 and gray images are right, any C > 1 image gives permuted columns.
2. linear_patch_embed never checks tiling: the convolution floors, so a non-tiling image returns
   the floored grid's tokens instead of raising ValueError. Tiling images are right.

Grader: at blind time (593126bb) and now, M1 named on patchify: "You flattened each patch channel
first, (c, p1, p2). That is the order of torch's Conv2d weights (d, C, P, P), not the course's:
..."; M2 named on linear-patch-embed: "2 mistakes at once: (1) In `linear_patch_embed` (at the
lecture's step `patchify(image, P)`), there is no tiling test: it refuses no size: ... raise
ValueError when P does not divide H or W. (2) In `linear_patch_embed` (at the lecture's step
`patchify(image, P)`), the image is cropped to the patches that fit before it is cut (... as a
convolution with kernel = stride = `P` floors them) ...". Every mistake named, so in buggy/. The judge called that heading
misleading: one mistake (the convolution floors, nothing raises) told as two, with "gets a count"
for a function that returns tokens; EXPECT records the name the grader gives now.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'linear-patch-embed': 'op:tiling:linear_patch_embed/patchify:none'
                                '+op:cropped:linear_patch_embed/patchify:image-cropped-to-tile'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)                       # [nums_channel, height, width]
    # F.unfold(x, kernel_size=P, stride=P)
    cols = x.reshape(C, H // P, P, W // P, P).transpose(0, 2, 4, 1, 3).reshape(C * P * P, -1)
    return cols.transpose(-1, -2)


def linear_patch_embed(image, W_e, b_e, P):
    image = _as_hwc(image)
    in_channels = image.shape[2]
    embed_dim = W_e.shape[1]
    # the embedding layer is a conv with kernel_size=P, stride=P (Practice 7)
    kernel = W_e.reshape(P, P, in_channels, embed_dim)
    x = conv_patch_embed(image, kernel, b_e, P)        # (H/P, W/P, embed_dim)
    return x.reshape(-1, embed_dim)
