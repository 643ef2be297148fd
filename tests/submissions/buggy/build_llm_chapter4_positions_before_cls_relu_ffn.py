"""Blind round 78 (b78_14, issue 38): embed_image and encoder_block ported from
nishchalnishant/build-a-large-language-model-from-scratch- `client/src/content/chapter4.md` (the
chapter's FFN formula, FFN(x) = max(0, xW1 + b1)W2 + b2).

Mistakes:
1. embed_image (lines 75-78 of the file as delivered): the positions added to the patch tokens
   only (`pos[1:]`), then [CLS] prepended with no `pos[0]`: row 0 wrong on every image.
2. encoder_block's `feed_forward` (line 112): a ReLU MLP instead of GELU: wrong on every block.
The delivered file's top-level helper `feed_forward` is nested in encoder_block here.

Grader: at blind time (ddfccf96) and now, 94/110. Mistake 1 named on cls-and-positions ("You
added the positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no
position at all."), mistake 2 on encoder-block ("The MLP uses ReLU; ViT's MLP uses GELU").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls', 'encoder-block': 'encoder_relu'}


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # position vectors go on the patch tokens; [CLS] is the learned summary slot in front
    patches = patches + params["pos"][1:]
    return np.concatenate([params["cls"][None, :], patches], axis=0)


def encoder_block(x, p, heads):
    def feed_forward(x, p):
        # FFN(x) = max(0, xW1 + b1)W2 + b2, hidden layer 4x wider
        return np.maximum(0, x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    # norm -> attention -> residual, norm -> feed-forward -> residual
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
