"""Blind round 67 (b67_12, issue 38): patchify, linear_patch_embed and
embed_image ported from nguyenminhduc0233/Face-Recognize (`Model/PatchExtractionLayer.py`,
`Model/PatchEmbeddingLayer.py`, `Model/PositionEmbeddingLayer.py`): patchify and
linear_patch_embed right.

Mistakes:
18. embed_image (lines 107-109 of the file as delivered): PositionEmbeddingLayer adds rows
    `range(num_patches)` of the table to the patch tokens (`pos[0:N]`), then [CLS] is prepended
    without a position. Wrong on any input.

Grader: at blind time (d3fd340b) and now, 98/110, named on cls-and-positions' three checks ("In
`embed_image`, `x + params['pos']` is added before `np.vstack([params['cls'], x])`, to the rows
of `x` alone, with the first rows of `params['pos']`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}
CORRECT = ('patchify', 'linear_patch_embed')


def patchify(image, P):
    """PatchExtractionLayer: extract_patches(sizes=[1,P,P,1], strides=[1,P,P,1], VALID)."""
    image = _as_hwc(image)
    height, width, channels = image.shape
    num_patches(height, width, P)  # ValueError when P does not tile
    rows = []
    for r in range(0, height - P + 1, P):
        for c in range(0, width - P + 1, P):
            rows.append(image[r:r + P, c:c + P, :].reshape(-1))  # depth-last, like extract_patches
    return np.stack(rows).reshape(-1, P * P * channels)


def linear_patch_embed(image, W_e, b_e, P):
    """PatchEmbeddingLayer: a Dense layer on the patches (kernel W_e, bias b_e)."""
    patches = patchify(image, P)
    return np.dot(patches, W_e) + b_e


def embed_image(image, params):
    """Patches -> Dense -> + position embeddings -> prepend the class token."""
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num_patches_ = patches.shape[0]
    positions = np.arange(0, num_patches_, 1)
    encoded = patches + np.take(params["pos"], positions, axis=0)   # PositionEmbeddingLayer
    class_token = params["cls"][None, :]
    return np.concatenate([class_token, encoded], axis=0)
