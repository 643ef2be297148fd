"""An embed_image that adds the positions to the patches only (pos[1:]; the [CLS] row gets no
position) and an encoder block whose MLP uses ReLU (the original Transformer's FFN). Two
mistakes in two functions."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls', 'encoder-block': 'encoder_relu'}


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = tokens + params["pos"][1:]
    return np.vstack([params["cls"], tokens])


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = np.maximum(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"], 0)
    return x + h @ p["W2"] + p["b2"]
