"""Lab 4 submission using an einops-like rearrange written with numpy.

Mistake (1): patchify numbers the patches column by column (top to bottom, then left to
right), i.e. rearrange 'b (h p1) (w p2) c -> b (w h) (p1 p2 c)' instead of '(h w)'.
Inside a patch the order (p1, p2, c) is right.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed'}


def patchify(image, P):
    """rearrange(image, '(h p1) (w p2) c -> (w h) (p1 p2 c)', p1=P, p2=P)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    x = image.reshape(h, P, w, P, C)        # h p1 w p2 c
    x = x.transpose(2, 0, 1, 3, 4)          # w h p1 p2 c
    return x.reshape(w * h, P * P * C)
