"""Blind round 52 (b52_01, issue 38): patchify ported from an `extract_simple_patches_2d` (the
logger variant: `logger.warning('image %s divided by patch %s is not zero and some parts will be
lost', ...)`, `n_h = int(i_h / p_h)`, a loop of `patch.flatten()`); softmax from
yas-sim/openvino-llm-minimal-code, misc.py (`x = x - np.max(x, axis=0)`, `np.exp(x) /
np.sum(np.exp(x), axis=0)`). The module-level `logger = logging.getLogger(__name__)` is made
inside patchify here (a fixture replaces the solution's functions only).

Mistakes:
1. patchify: when the patches do not tile it only logs a warning and crops with `int(i_h/p_h)`,
   where the API wants ValueError (7x8 with P=2, 8x10 with P=4 return cropped patches).
   linear_patch_embed returns too.
2. softmax ignores `axis`: max and sum over axis 0. Right on 1-D input; on 2-D and 3-D input with
   axis=-1 it normalises over axis 0. self_attention, encoder_block and vit_forward inherit it.

Grader: at blind time (db53909c) and now, both named: M1 on patchify ("You cropped the pixels that
do not fit. ViT patches tile the image: when P does not divide H or W, raise ValueError rather than
silently dropping (or padding) pixels."), M2 on stable-softmax ("One slip, made at 2 places: (1) In
`softmax`, your values are the lecture's with `np.max(x, keepdims=True, axis=0)` in place of
`np.max(x, axis=axis, keepdims=True)`: over axis 0 instead of the axis `axis` it is given ... (2)
... `np.sum(e, keepdims=True, axis=0)` in place of `np.sum(e, axis=axis, keepdims=True)` ..."), and
the sums property's checklist on the same mistake ("Along `axis` the values are probabilities:
..."); vit-checkpoint observes softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_floor_crop',
          'stable-softmax': 'op:axis:softmax:max.axis=0+op:axis:softmax:sum.axis=0'}
ALIASES = ('softmax_wrong_axis',)  # the sums property's checklist on the same mistake


def patchify(image, P):
    """Reshape an image into a collection of patches without duplication of extracted range."""
    import logging
    logger = logging.getLogger(__name__)
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    i_h, i_w = image.shape[:2]
    p_h, p_w = P, P

    if i_h % p_h != 0 or i_w % p_w != 0:
        logger.warning(
            'image %s divided by patch %s is not zero and some parts will be lost', image.shape[:2], (p_h, p_w))

    image = image.reshape((i_h, i_w, -1))
    n_colors = image.shape[-1]

    patches = []

    n_h = int(i_h / p_h)
    n_w = int(i_w / p_w)

    for i in range(n_h):
        for j in range(n_w):
            patch = image[p_h * i:p_h * i + p_h, p_w * j:p_w * j + p_w]
            patches.append(patch.flatten())

    n_patches = len(patches)
    return np.asarray(patches).reshape(n_patches, p_h * p_w * n_colors)


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1; stable for large inputs."""
    x = x - np.max(x, axis=0)
    return np.exp(x) / np.sum(np.exp(x), axis=0)
