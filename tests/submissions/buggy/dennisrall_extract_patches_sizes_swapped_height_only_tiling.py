"""Blind round 74 (b74_10, issue 38): num_patches and patchify ported from
dennisrall/vision-transformer `src/layers/extract_patches.py` ("Extract quadratic patches from
quadratic images").

Mistakes:
1. patchify (extract_patches, line 45 of the file as delivered): `x.reshape(W // P, P, H // P,
   P, C)`, H and W swapped. The same on square images; on non-square ones the reshape still
   succeeds and the patches are scrambled (8 x 12, 12 x 8, 6 x 10).
2. num_patches (line 13): only `H % P` is tested, so a width P does not tile gets a count
   instead of ValueError (16 x 20, P = 8 gives 4).
The delivered file's top-level helpers _to_image and extract_patches are nested in patchify
here.

Grader: at blind time (997839b5) and now, 103/110. Mistake 1 named on patchify (at blind time "In
`patchify`, `image.reshape(H // P, P, W // P, P, C)` is given `H // P` and `W // P` the other way
round, `image.reshape(W // P, P, H // P, P, C)`"; now: "In `patchify`, the model solution's
`image.reshape(H // P, P, W // P, P, C)` is given its `H // P` and `W // P` the other way round,
`image.reshape(W // P, P, H // P, P, C)` ..."); mistake 2
on patch-count ("the tiling test ... tests the height only (`H % P`) ... test `W % P` too"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only',
          'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def num_patches(H, W, P):
    """Number of quadratic patches of size (P, P) in an image of size (H, W)."""
    if H % P != 0:
        raise ValueError(f'image size {H} is not a multiple of the patch size {P}')
    return (H // P) * (W // P)


def patchify(image, P):
    def _to_image(x):
        x = np.asarray(x, dtype=float)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError(f'expected an (H, W) or (H, W, C) image, got {x.shape}')
        return x

    def extract_patches(x, patch_size):
        """Extract quadratic patches of size (patch_size, patch_size, c) from an image
        of size (image_size, image_size, c)."""
        x = _to_image(x)
        old_shape = x.shape
        num_patches(old_shape[0], old_shape[1], patch_size)
        x = x.reshape(old_shape[1] // patch_size, patch_size,
                      old_shape[0] // patch_size, patch_size, old_shape[2])
        x = x.transpose(0, 2, 1, 3, 4)
        new_shape = (x.shape[0] * x.shape[1], patch_size * patch_size * old_shape[2])
        return x.reshape(new_shape)

    return extract_patches(image, P)
