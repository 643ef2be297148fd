"""Blind round 74 (b74_13, issue 38): num_patches and softmax ported from
GuillaumeZahnd/vision-transformer `source/patch_embeddings.py` (nb_patches = 1 + (size -
patch_side_length) // stride).

Mistakes:
1. num_patches (line 20 of the file as delivered): the convolution's output-size formula with
   stride P, which floors and never raises: 20 x 16, P = 8 gives 4 and 30 x 30, P = 7 gives 16
   instead of ValueError. Sizes that tile are right.
2. softmax (line 101): `exp(x) / sum` without subtracting the max: overflow and nan for inputs
   near 1000. Right on ordinary inputs along either axis.
The delivered file's top-level helpers get_nb_patches_height and get_nb_patches_width are nested
in num_patches here.

Grader: at blind time (997839b5) and now, 104/110. Mistake 1 named on patch-count ("Your count
is the floored one, (H // P) * (W // P) ... raise ValueError instead of rounding"); mistake 2 on
stable-softmax ("exp overflowed ... Subtract the maximum along the axis first"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'stable-softmax': 'softmax_without_max'}


def num_patches(H: int, W: int, P: int) -> int:
    """Number of patches in the image."""
    def get_nb_patches_height(image_height: int, patch_side_length: int, stride: int) -> int:
        """Number of patches along the height of the image."""
        return 1 + (image_height - patch_side_length) // stride

    def get_nb_patches_width(image_width: int, patch_side_length: int, stride: int) -> int:
        """Number of patches along the width of the image."""
        return 1 + (image_width - patch_side_length) // stride

    stride = P
    assert stride >= 1 and stride <= P, "The stride must be comprised in [1, patch_side_length]."
    return get_nb_patches_height(H, P, stride) * get_nb_patches_width(W, P, stride)


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    exponentials = np.exp(x)
    return exponentials / np.sum(exponentials, axis=axis, keepdims=True)
