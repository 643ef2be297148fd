"""Blind round 17 (b17_07, issue 38): patchify ported from the TensorFlow Model Garden ViT backbone,
the patches cut as `tf.image.extract_patches(..., padding='VALID')` does, and Model Garden's
position-interpolation view of the positions question.

Mistakes:
1. patchify loops over range(0, H - P + 1, P) and range(0, W - P + 1, P): a border that P does not
   tile is silently dropped instead of raising ValueError.
2. ANSWERS["positions"] = "resolution" instead of "permutation".

Grader: at blind time and now, both named (the cropped pixels; the positions answer's own
feedback). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_floor_crop', 'why-positions': 'positions:resolution'}


def patchify(image, P):
    """tf.image.extract_patches(sizes=[1, P, P, 1], strides=[1, P, P, 1], padding='VALID')."""
    inputs = np.asarray(image)
    if inputs.ndim == 2:
        inputs = inputs[:, :, np.newaxis]
    if inputs.ndim != 3:
        raise ValueError(f"Expected rank 2 or 3 image, got {inputs.ndim}")
    h, w, c = inputs.shape
    # tf.image.extract_patches(images, sizes=[1, P, P, 1], strides=[1, P, P, 1], rates=[1, 1, 1, 1], padding='VALID')
    patches = []
    for i in range(0, h - P + 1, P):
        for j in range(0, w - P + 1, P):
            patches.append(inputs[i:i + P, j:j + P, :].reshape(-1))
    return np.stack(patches).reshape(-1, P * P * c)


ANSWERS["positions"] = "resolution"
