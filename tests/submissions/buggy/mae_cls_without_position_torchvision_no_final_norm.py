"""Blind round 52 (b52_05, issue 38): embed_image ported from facebookresearch/mae,
models_mae.py forward_encoder (`x = x + self.pos_embed[:, 1:, :]`, then the cls token prepended;
the port drops MAE's `cls_token + self.pos_embed[:, :1, :]`); vit_forward from torchvision's
vision_transformer.py forward (the final LayerNorm lives inside `self.encoder`, and the port left
it out).

Mistakes:
1. embed_image: the [CLS] row gets no pos[0]; the patches get pos[1:] as they should. Row 0
   differs whenever pos[0] != 0.
2. vit_forward: no final `layer_norm(x, ln_g, ln_b)` before the head. The logits differ on every
   input.

Grader: at blind time (db53909c) and now, both named: M1 on cls-and-positions ("You added the
positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at all.
Prepend [CLS] first, then add all N + 1 rows of params["pos"]."), M2 on vit-forward ("The head reads
tokens that did not go through the final LayerNorm (skipped, or its result left unused): after the
last block, apply layer_norm(x, ln_g, ln_b), then read [CLS] from its result."); vit-checkpoint
observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'vit-forward': 'vit_final_ln_skipped'}


def embed_image(image, params):
    """Embed patches, add positions, then append the cls token."""
    # embed patches
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])

    # add pos embed w/o cls token
    x = x + params["pos"][1:, :]

    # append cls token
    cls_token = params["cls"][None, :]
    x = np.concatenate((cls_token, x), axis=0)
    return x


def vit_forward(image, params):
    """Classify one image: embeddings, encoder, then the head on the class token."""
    x = embed_image(image, params)
    # encoder
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # Classifier "token" as used by standard language architectures
    x = x[0]
    x = x @ params["W_head"] + params["b_head"]
    return x
