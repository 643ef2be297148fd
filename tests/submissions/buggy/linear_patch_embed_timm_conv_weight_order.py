"""timm's PatchEmbed (a Conv2d whose weight is (d, C, P, P)) ported as a linear map: each patch
is flattened channel first, (C, P, P), as torch's conv weight is, not (P, P, C)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first'}


def linear_patch_embed(image, W_e, b_e, P):
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    x = image.transpose(2, 0, 1)                                   # NCHW without N
    x = x.reshape(C, H // P, P, W // P, P).transpose(1, 3, 0, 2, 4)  # (gh, gw, C, P, P)
    x = x.reshape((H // P) * (W // P), C * P * P)
    return x @ W_e + b_e
