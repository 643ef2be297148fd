"""Blind round 55 (b55_09, issue 38): embed_image ported from a VLM vision encoder (find_string id
34993003361: `x = x + self.pos_embed[:, 1:, :]` on the patch tokens), then [CLS] prepended.

Mistakes:
1. The patch tokens get `pos[1:]` and [CLS] is prepended afterwards with no position: row 0 is
   `cls`, not `cls + pos[0]`. Every image (square, non-square, gray, uint8) gives a different row
   0 (max |diff| 0.4 to 0.9), and so do vit_forward's logits.

Grader: at blind time (cdc1de9a) and now, named on cls-and-positions' "RGB and gray images, random
parameters" and its hidden check ("You added the positions before prepending [CLS], so the
patches got pos[1:] and [CLS] got no position at all. Prepend [CLS] first, then add all N + 1
rows of params["pos"]."); vit-checkpoint observes embed_image. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls'}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer."""
    # Patch embedding
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])   # [N, d]

    # Add positional embeddings
    x = x + params["pos"][1:, :]

    # Prepend CLS token
    cls_token = params["cls"][None, :]
    x = np.concatenate((cls_token, x), axis=0)
    return x
