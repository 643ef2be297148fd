"""Blind round 73 (b73_12, issue 38): attention_scores and patchify ported from
tklee-yonsei/tracking_net `utils/tf_images.py`.

Mistakes:
1. attention_scores (line 45 of the file as delivered): `(num_tokens - 1) ** 2`, [CLS] dropped
   (38416 instead of 38809 for 197).
2. patchify (line 79): the transpose `[2, 0, 1, 3, 4]` numbers the patches column-major; the
   in-patch order is right. Wrong whenever the grid has more than one row and one column.

Grader: at blind time (6245b55a) and now, 92/110. Mistake 1 named on attention-cost ("`T * T` is
computed as `(T - 1) * (T - 1)`"); mistake 2 on patchify ("Your patches are numbered down the
columns first"); vit-checkpoint observes patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count:attention_scores:T-minus-1',
          'patchify': 'patchify_grid_transposed'}


def attention_scores(num_tokens: int) -> int:
    """
    Scores in one attention map: every patch against every patch.
    """
    return (num_tokens - 1) ** 2


def patchify(image, P: int):
    """
    Cut an image into flattened P x P patches.

    Parameters
    ----------
    image : ndarray
        (H, W) or (H, W, C) image.
    P : int
        Patch size.

    Returns
    -------
    ndarray
        (N, P * P * C) patches.

    Examples
    --------
    >>> a = np.arange(16.0).reshape(4, 4)
    >>> patchify(a, 2)[0]
    array([0., 1., 4., 5.])
    """
    data = np.asarray(image)
    if data.ndim == 2:
        data = data[:, :, np.newaxis]
    if data.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    height, width, channels = data.shape
    num_patches(height, width, P)
    rows, cols = height // P, width // P
    data = np.reshape(data, [rows, P, cols, P, channels])
    data = np.transpose(data, [2, 0, 1, 3, 4])
    return np.reshape(data, [rows * cols, P * P * channels])
