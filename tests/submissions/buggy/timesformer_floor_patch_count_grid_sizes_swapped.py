"""Blind round 22 (b22_04, issue 38): num_patches and patchify ported from
facebookresearch/TimeSformer (vit.py's PatchEmbed: `num_patches = (img_size[1] // patch_size[1])
* (img_size[0] // patch_size[0])`). The student's top-level helper `_as_image` is nested in
patchify here: the builder replaces only the solution's own definitions.

Mistakes:
1. num_patches floors the grid with no ValueError when P does not tile H or W.
2. patchify reshapes with `(W // P, P, H // P, P, C)`: the grid sizes swapped, right for square
   images only.

Grader: at blind time and now (the same commit), both named: the floor division, and `H // P`
and `W // P` given the other way round. token-count does not lose points. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def num_patches(H, W, P):
    img_size = (H, W)
    patch_size = (P, P)
    return (img_size[1] // patch_size[1]) * (img_size[0] // patch_size[0])


def patchify(image, P):
    def _as_image(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _as_image(image)
    H, W, C = x.shape
    if P <= 0 or H % P or W % P:
        raise ValueError("patch size must divide the image size")
    H, W = H // P, W // P
    x = x.reshape(W, P, H, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(H * W, P * P * C)
