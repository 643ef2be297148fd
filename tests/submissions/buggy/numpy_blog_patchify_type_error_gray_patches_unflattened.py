"""Blind round 14 (b14_03, issue 38): a "ViT from scratch in numpy" blog post's image_to_patches
(patch images kept for plotting), with torchvision-style TypeErrors for the input check.

Mistakes (both in patchify):
1. an image that is neither 2-D nor 3-D raises TypeError (right: ValueError).
2. a 2-D (gray) image's patches are returned unflattened, shape (N, P, P) (right: (N, P*P)).
   3-D images are right.

Grader: at blind time and now, the TypeError is observed ("Your code raised TypeError where
ValueError is asked for": another exception than the one asked for is an observation,
docs/spec.md); the 2-D image was observed (only_3d_images: "right for (H, W, C) images, wrong for
a 2-D (H, W) one: a 2-D image is one channel"), and since session 19 is named on the worked
example and grayscale checks (ports.gray_patches_as_tiles: a gray image's patches returned as
P x P tiles). Stayed in unnamed/ for the TypeError until session 20: the student's own `raise
TypeError(...)` where ValueError is asked for is named since (refused_with_other_type: the
traceback ends on that statement, so the type is seen, as an assert's is), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:gray_tiles:patchify:gray-patches-as-tiles'}
ALIASES = ('refused_with_other_type',)  # mistake 1, on the same exercise's errors check


def patchify(image, P):
    """Patches of one image, after the blog post "Vision Transformer from scratch in numpy"
    (image_to_patches: reshape, swapaxes, reshape)."""
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise TypeError(f"image should be 2/3 dimensional, got {image.ndim} dimensions")
    H, W = image.shape[:2]
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    if image.ndim == 2:
        # grayscale: a grid of P x P tiles
        return image.reshape(H // P, P, W // P, P).swapaxes(1, 2).reshape(-1, P, P)
    C = image.shape[2]
    return image.reshape(H // P, P, W // P, P, C).swapaxes(1, 2).reshape(-1, P * P * C)
