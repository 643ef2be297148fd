"""Blind round 64 (b64_03, issue 38): embed_image ported from gapaza/MultiModalChess
`hydra/board_attention/PatchEncoder.py` (the Keras PatchEncoder: projection, then
`position_embedding(tf.range(num_patches))`).

Mistakes:
5. embed_image (lines 120-123 of the file as delivered): positions `pos[range(num_patches)]`,
   rows 0..N-1, added to the patch tokens, and only then [CLS] prepended: the patches get
   pos[0..N-1] instead of pos[1..N] and [CLS] no position. Wrong on any input.

Grader: at blind time (0cd43d22) and now, 98/110, named. Mistake 5 on all three of
cls-and-positions' failed checks ("In `embed_image`, the model solution's `x + params['pos']`
is added before the model solution's `np.vstack([params['cls'], x])`, to the rows of `x` alone,
with the first rows of `params['pos']`, `params['pos'][:len(x)]` ..."); vit-checkpoint observes
embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    PatchEncoder style: encode the patches, add position_embedding(range(num_patches)), then the
    learned [CLS] goes in front as row 0.
    """
    encoded_patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n = encoded_patches.shape[0]
    positions = np.arange(0, n, 1)                       # tf.range(start=0, limit=num_patches, delta=1)
    encoded_positions = params["pos"][positions]         # self.position_embedding(positions)
    encoded_patches = encoded_patches + encoded_positions
    return np.concatenate([params["cls"][None, :], encoded_patches], axis=0)
