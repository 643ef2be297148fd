"""Blind round 56 (b56_06, issue 38): patchify ported from ryotomatsuba/VideoPrediction
`models/predrnn/utils/preprocess.py` `reshape_patch` (`a.permute(0,1,2,4,3,5,6)` whose result is
never assigned).

Mistakes:
11. `a.transpose(0, 2, 1, 3, 4)` is called and its result thrown away, so the patches are
    consecutive runs of the row-major image, not P x P tiles: 4x4 gray `arange(16)`, P = 2,
    first patch `[0, 1, 2, 3]` (want `[0, 1, 4, 5]`). Right only when W == P (one patch
    column, e.g. 8x4 or 12x4 images with P = 4); wrong on every other image (square or not, any
    C, gray, uint8), and through it `linear_patch_embed`, `embed_image`, `vit_forward`.
    `conv_patch_embed` is untouched.

Grader: at blind time (ba2d1546) partly named, on patchify's four failing checks:
"image.reshape(N, P*P*C) takes consecutive pixels along a row, not P x P tiles. Cut the grid
first: reshape(H//P, P, W//P, P, C), move the two patch-grid axes to the front with
transpose(0, 2, 1, 3, 4), then flatten each patch." The effect is right, but the student already
wrote that transpose: the hint never says its result is not assigned.
Now named (the same mistake, `patchify_bare_reshape`, the error model's transpose removed), and
said from the student's source as the line that threw it away (report/discarded.py): "In
`patchify`, `a.transpose(0, 2, 1, 3, 4)` on line 77 returns a new array that is never used, so
the code after it runs as if it were not there: assign it (`a = a.transpose(...)`)." (line 69 of
the blind file). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_bare_reshape'}


def patchify(image, P):
    """reshape_patch for one image: (H, W, C) -> (N, P*P*C)."""
    image = _as_hwc(image)
    img_height, img_width, num_channels = image.shape
    num_patches(img_height, img_width, P)
    a = np.reshape(image, [img_height // P, P,
                           img_width // P, P,
                           num_channels])
    a.transpose(0, 2, 1, 3, 4)
    patch_tensor = np.reshape(a, [(img_height // P) * (img_width // P),
                                  P * P * num_channels])
    return patch_tensor
