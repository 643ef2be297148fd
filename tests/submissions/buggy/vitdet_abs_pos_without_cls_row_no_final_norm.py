"""Blind round 71 (b71_15, issue 38): embed_image (with its `get_abs_pos`) and vit_forward
ported from showstarpro/mae `detectron2/detectron2/modeling/backbone/vit.py` (ViTDet).

Mistakes:
1. embed_image (lines 73 and 80-82 of the file as delivered): `get_abs_pos` drops the [CLS]
   position (`abs_pos[1:]`): pos[1:] is added to the patch tokens and [CLS] is prepended
   without pos[0]. Wrong whenever pos[0] is not zero (row 0 only).
2. vit_forward (lines 137-140): no final layer_norm (the ViTDet backbone has none): row 0 of the
   last block goes straight to the head, ln_g and ln_b unused. Wrong on every image.
The delivered file's top-level helper `get_abs_pos` is nested here.

Grader: at blind time (3f040026) and now, 93/110. Mistake 1 named on cls-and-positions ("You
added the positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no
position at all."); mistake 2 named on vit-forward ("The head reads tokens that did not go
through the final LayerNorm"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'vit-forward': 'vit_final_ln_skipped'}


def embed_image(image, params):
    def get_abs_pos(abs_pos, has_cls_token, num_patches):
        """Absolute positional embeddings for the patch tokens (cls position removed)."""
        if has_cls_token:
            abs_pos = abs_pos[1:]
        assert abs_pos.shape[0] == num_patches
        return abs_pos

    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = x + get_abs_pos(params["pos"], True, x.shape[0])
    cls_token = params["cls"][None, :]
    return np.concatenate([cls_token, x], axis=0)


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
