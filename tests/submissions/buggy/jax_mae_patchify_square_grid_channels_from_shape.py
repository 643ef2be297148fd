"""Blind round 44 (b44_02, issue 38): patchify ported from a JAX MAE utility (`patchify(images,
patch_size)`, `h = w = images.shape[1] // patch_size`, the channel count read from the shape).

Mistakes:
1. patchify: `h = w = H // P` (square images assumed): a non-square image raises a reshape
   ValueError instead of returning its patches.
2. patchify: reads the channel count as `images.shape[2]` with no 2-D handling: a gray (H, W)
   image raises IndexError where the lecture treats it as (H, W, 1).

Grader: at blind time (0fc72e8) the square grid was named ("`W // P` reads `H` where `W`
belongs", op:sibling:patchify:W-as-H) on the RGB and hidden checks; the 2-D IndexError got only
checklists (the grayscale check's "A 2-D (H, W) image is cut as an (H, W, 1) one", the worked
example's "The top-left 2x2 patch ... must flatten to [1, 2, 3, 4]"). Now the IndexError is
named too, on the worked example and the grayscale check (inputs.channel_indexed: "`image` is
read as having a third, channel axis (its channel count taken as `image.shape[2]` ...)").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:W-as-H'}
ALIASES = ('op:channel_indexed:patchify:image-2d-channel-indexed',)  # the file's other mistake,
# named on the same exercise


def patchify(images, patch_size):
    """
    images: (H, W, C)
    x: (L, patch_size**2*C)
    """
    images = np.asarray(images)
    if images.shape[0] % patch_size or images.shape[1] % patch_size:
        raise ValueError(f"patch size {patch_size} does not tile {images.shape[:2]}")
    h = w = images.shape[0] // patch_size
    x = images.reshape(h, patch_size, w, patch_size, images.shape[2])
    x = np.einsum('hpwqc->hwpqc', x)
    x = x.reshape(h * w, patch_size**2 * images.shape[2])
    return x
