"""Blind round 4 (b4_07, issue 38), a port of big_vision's vit.py with two mistakes: embed_image
adds pos[:N] to the N patch tokens before the 'tok' [CLS] is concatenated, so [CLS] gets no
position and patch i gets pos[i] instead of pos[i + 1] (named); num_tokens counts the patches
as (H * W) // (P * P), from the pixel totals, so sizes that the patches do not tile give a
floored count instead of raising ValueError (right whenever P tiles H and W). Nothing names the
count yet: its hidden check "random sizes that do not tile" fails with the checklist only.
Since session 16 (tiling): the count is named, as no tiling test with the count by area
(tiling.tiling's `none` with tiling.count_by_area): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'token-count': 'op:tiling:num_tokens/num_patches:none+op:count_by_area:num_tokens/num_patches:count-by-area'}


def num_tokens(H, W, P, cls_token=True):
    """seq_len = h * w // (p * p) patches, + 1 for the 'tok' pooling token."""
    n = (H * W) // (P * P)
    return n + 1 if cls_token else n


def embed_image(image, params):
    """Embedding as big_vision's _Model.__call__ with pool_type='tok'."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n, c = x.shape
    x = x + params["pos"][:n]
    cls = np.tile(params["cls"][None, :], (1, 1))
    x = np.concatenate([cls, x], axis=0)
    return x
