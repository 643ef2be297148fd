"""lucidrains' to_patch_embedding rearrange, '(h p1) (w p2) c -> (h w) (p1 p2 c)', ported to
reshape/transpose with the two inner axes in the other order: each patch is flattened
column first (p2, p1, c)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_patch_transposed'}


def patchify(image, P):
    if image.ndim == 2:
        image = image[..., None]
    H, W, C = image.shape
    if H % P or W % P:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    h, w = H // P, W // P
    x = image.reshape(h, P, w, P, C).transpose(0, 2, 3, 1, 4)
    return x.reshape(h * w, P * P * C)
