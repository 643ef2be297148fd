"""Blind round 54 (b54_01, issue 38): patchify ported from isk03276/simple-vit, utils/image.py
(`slice_image_to_patches`: `images.unfold(1, C, C).unfold(2, P, P).unfold(3, P, P).squeeze()`,
then `reshape(n_batch, -1, n_channel, P, P)`), with a numpy `_unfold` (sliding_window_view) on the
image put channels first.

Mistakes:
1. Order inside a patch is (c, p1, p2) (the torch layout), not (p1, p2, c). Shows only with C > 1
   (8x8 C=3 P=4: row 0 starts [x00c0, x01c0, ...] instead of [x00c0, x00c1, ...]); C = 1 and gray
   images are right. The shape is still (N, P*P*C).
2. No ValueError when P does not tile: `unfold` floors, so patchify returns the floored patches
   (8x6 C=3 P=4 -> (2, 48); 10x8 C=1 P=4 -> (4, 16)) where the API raises. Non-2-D/3-D input
   still raises ValueError (and an image with no whole patch: sliding_window_view's own error).

Grader: at blind time (5f4a3d53), both named on patchify: #1 on "raster order and (p1, p2, c)
flatten on RGB images" and the hidden "random images" ("You flattened each patch channel first,
(c, p1, p2). ..."), #2 on "errors" and the hidden "random images that do not tile" as "3 mistakes
at once: (1) In `patchify`, there is no tiling test: it refuses no size: a 30 x 32 image with P =
16 is let through. ... (2) In `patchify`, the image is cropped to the patches that fit before it
is cut ... (only an image with no whole patch is refused) ... (3) In `patchify`, each patch is
flattened channels first ..." (one slip told as two, and a channel order that cannot change a
ValueError check, with "refuses no size" said of code that refuses some). vit-checkpoint observes
patchify (true: the checkpoint is RGB).
Now named: #1 as before; #2 on "errors" as one mistake, with only what its blank images show ("In
`patchify`, there is no tiling test: a size P does not tile (30 x 32 with P = 16) is let through.
... Then the image is cropped to the patches that fit before it is cut ... (only an image with no
whole patch is refused) ..."), and on the hidden "random images that do not tile", whose RGB
images show the order of what comes back too, as "2 mistakes at once: (1) <that> (2) In
`patchify`, each patch is flattened channels first ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    """Split an image into patches: (H, W, C) or (H, W) -> (N, P*P*C).

    Same steps as slice_image_to_patches (images are N * C * H * W there), with a batch of one.
    """
    def _unfold(x, dim, size, step):
        """numpy torch.Tensor.unfold(dim, size, step): the windows go to a new last axis."""
        n = (x.shape[dim] - size) // step + 1
        windows = np.lib.stride_tricks.sliding_window_view(x, size, axis=dim)
        index = [slice(None)] * windows.ndim
        index[dim] = slice(0, n * step, step)
        return windows[tuple(index)]

    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    images = image.transpose(2, 0, 1)[None]          # (1, C, H, W)
    images_shape = images.shape
    n_batch, n_channel = images_shape[:2]
    patches = _unfold(_unfold(_unfold(images, 1, n_channel, n_channel), 2, P, P), 3, P, P).squeeze()
    patches = patches.reshape(n_batch, -1, n_channel, P, P)
    return patches.reshape(-1, n_channel * P * P)
