"""patchify that copies the image into a zero canvas of the next multiple of P, image in the
canvas's bottom-right corner (`canvas[Hp - H:, Wp - W:] = image`), instead of refusing a size P
does not tile: the zeros go at the top and left. Written for session 32 to show tiling.padded's
places on another style than b66_14's np.pad.

Grader: patchify's non-tiling checks name it: the image zero-padded at the top and left to a
multiple of P, told apart from the other places by the probe sizes.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-top-left-to-tile'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    if P <= 0:
        raise ValueError("P must be positive")
    Hp, Wp = -(-H // P) * P, -(-W // P) * P
    canvas = np.zeros((Hp, Wp, C), dtype=image.dtype)
    canvas[Hp - H:, Wp - W:] = image
    rows = []
    for i in range(0, Hp, P):
        for j in range(0, Wp, P):
            rows.append(canvas[i:i + P, j:j + P].reshape(-1))
    return np.stack(rows)
