"""A decomposition the lecture allows (Practice 7): the patch embedding built on the
convolution with kernel P and stride P. `vitgrade compile` runs the solution with these
definitions in place of its own, so that the stand-ins' recorded answers cover the calls a
correct submission built this way makes (the student bundle, which has no reference, answers
recorded calls only)."""
# ruff: noqa: F821  (every other name is the solution's)


def linear_patch_embed(image, W_e, b_e, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    return conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P).reshape(-1, d)
