"""linear_patch_embed does its own patch split, ported from a PyTorch tutorial: the image goes to
(C, H, W) first, so every patch is flattened channel first, (c, p1, p2), instead of the course's
(p1, p2, c) that W_e's rows follow. It never calls patchify."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_channel_first'}


def linear_patch_embed(image, W_e, b_e, P):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[..., None]
    H, W, C = image.shape
    if H % P != 0 or W % P != 0:
        raise ValueError("the patches must tile the image")
    x = image.transpose(2, 0, 1)                        # (C, H, W), like a torch tensor
    x = x.reshape(C, H // P, P, W // P, P)              # (C, rows, p1, cols, p2)
    x = x.transpose(1, 3, 0, 2, 4)                      # (rows, cols, C, p1, p2)
    x = x.reshape((H // P) * (W // P), C * P * P)
    return x @ W_e + b_e
