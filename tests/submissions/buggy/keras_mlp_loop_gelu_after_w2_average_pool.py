"""Blind round 4 (b4_05, issue 38), a port of the Keras example "Image classification with Vision
Transformer" with two mistakes: encoder_block's MLP is the example's mlp(x, hidden_units) loop,
which applies GELU after every dense layer, after W2 as well (before the residual); vit_forward
averages all tokens (global average pooling) instead of reading the [CLS] row 0.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def encoder_block(x, p, heads):
    """One transformer layer of the Keras ViT example (pre-norm, two skip connections)."""
    def mlp(h, layers):
        for W, b in layers:
            h = gelu(h @ W + b)
        return h

    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = mlp(x3, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    return x3 + x2


def vit_forward(image, params):
    """create_vit_classifier: patches, encoder layers, LayerNormalization, pooled representation, head."""
    encoded_patches = embed_image(image, params)
    for block in params["blocks"]:
        encoded_patches = encoder_block(encoded_patches, block, params["heads"])
    representation = layer_norm(encoded_patches, params["ln_g"], params["ln_b"])
    representation = representation.mean(axis=0)
    return representation @ params["W_head"] + params["b_head"]
