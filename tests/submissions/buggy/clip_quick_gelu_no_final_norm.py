"""Blind round 3 (b3_04, issue 38), a port of OpenAI CLIP with two mistakes: encoder_block's MLP
uses CLIP's QuickGELU, x * sigmoid(1.702 x), instead of GELU; vit_forward has no final
layer_norm (CLIP's ln_post): the [CLS] row of the last block goes straight into the head.
(The submission's module-level helpers are nested in the function that uses them
here: a fixture replaces only the solution's names.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu',
          'vit-forward': 'vit_final_ln_skipped'}


def encoder_block(x, p, heads):
    """CLIP ResidualAttentionBlock: x + attn(ln_1(x)), then x + mlp(ln_2(x))."""
    def quick_gelu(x):
        """CLIP's QuickGELU."""
        return x * (1.0 / (1.0 + np.exp(-1.702 * x)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    return x + quick_gelu(h) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    """CLIP VisionTransformer.forward without the projection."""
    x = embed_image(image, params)
    for resblock in params["blocks"]:
        x = encoder_block(x, resblock, params["heads"])
    cls = x[0, :]
    return cls @ params["W_head"] + params["b_head"]
