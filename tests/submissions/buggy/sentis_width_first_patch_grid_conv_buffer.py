"""Blind round 28 (b28_09, issue 38): patchify and conv_patch_embed ported from Unity Sentis /
Barracuda C# habits (Texture2D.width/height, Vector2Int(x, y) grids, out[y, x] loops). The
student's top-level helper `_grid_size` is nested in patchify here: the builder replaces only the
solution's own definitions.

Mistakes:
1. patchify reshapes the image as (W//P, P, H//P, P, C), width first: non-square images get
   scrambled patches.
2. conv_patch_embed allocates its output buffer width first, np.zeros((outW, outH, d)), but
   writes it as out[y, x]: non-square images give a (W', H', d) array or an IndexError.

Grader: at blind time and now, (1) named: `H // P` and `W // P` given the other way round in
patchify's reshape; (2) not named: observed on kernel-stride, "right when H == W, and raises
IndexError for a 5 x 6 image" (only_square_images), not which array has its sizes swapped.
Since session 15 (2) named: the result written into a buffer allocated with its first two sizes
the other way round, `np.zeros((W', H', ...))`, and filled as `out[i, j]` (results.py): every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-buffer-sides-swapped'}


def patchify(image, P):
    def _grid_size(width, height, P):
        """Vector2Int(width / P, height / P): the patch grid as (x, y)."""
        return (width // P, height // P)

    image = _as_hwc(image)
    height, width, channels = image.shape
    num_patches(height, width, P)
    gx, gy = _grid_size(width, height, P)
    tiles = image.reshape(gx, P, gy, P, channels).swapaxes(1, 2)
    return tiles.reshape(gx * gy, P * P * channels)


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    height, width, channels = image.shape
    k = K.shape[0]
    if k > width or k > height:
        raise ValueError("kernel larger than texture")
    outW = (width - k) // stride + 1
    outH = (height - k) // stride + 1
    d = K.shape[-1]
    out = np.zeros((outW, outH, d))
    for y in range(outH):
        for x in range(outW):
            px, py = x * stride, y * stride
            window = image[py:py + k, px:px + k, :]
            out[y, x] = np.einsum("ijc,ijcd->d", window, K) + b
    return out
