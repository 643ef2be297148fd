"""Lab 4 submission ported from the Keras ViT tutorial (mlp() with gelu on every Dense).

Mistakes (2):
- embed_image concatenates [CLS] AFTER the patch tokens (row N instead of row 0) before
  adding positions; vit_forward still reads row 0.
- encoder_block's MLP applies gelu after both Dense layers (Keras' mlp helper loop),
  gelu(gelu(h @ W1 + b1) @ W2 + b2), instead of only after the first.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended', 'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def embed_image(image, params):
    """PatchEncoder: projection, class token, position embedding."""
    encoded = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    encoded = np.concatenate([encoded, params["cls"][None, :]], axis=0)
    return encoded + params["pos"]


def encoder_block(x, p, heads):
    """One transformer block of the Keras tutorial."""
    def mlp(x, weights):
        for W, b in weights:
            x = gelu(x @ W + b)
        return x

    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = mlp(x3, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    return x3 + x2
