"""Blind round 2 (issue 38), a port with its own mistakes: encoder_block is post-LN (original
Transformer): x = LN(x + attn(x)), x = LN(x + mlp(x)); embed_image adds pos[1:] to the patch
tokens only, so [CLS] gets no position embedding.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls', 'encoder-block': 'encoder_post_ln'}


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    patches = patches + params["pos"][1:]
    return np.concatenate([params["cls"][None], patches], axis=0)


def encoder_block(x, p, heads):
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    m = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return layer_norm(x + m, p["ln2_g"], p["ln2_b"])
