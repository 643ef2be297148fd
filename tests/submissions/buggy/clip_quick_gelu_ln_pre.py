"""Blind round 4 (b4_13, issue 38), a port of OpenAI CLIP's VisionTransformer with two mistakes:
encoder_block's MLP uses CLIP's QuickGELU, x * sigmoid(1.702 x), not GELU; vit_forward keeps
CLIP's ln_pre, layer_norm(x, ln_g, ln_b) on the embedded sequence before the blocks as well as
after them.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu',
          'vit-forward': "op:indentation:vit_forward:layer_norm(xparams['ln_g']params['ln_b']-before-loop-too"}


def encoder_block(x, p, heads):
    """ResidualAttentionBlock: x + attn(ln_1(x)), then x + mlp(ln_2(x)) with c_fc, QuickGELU, c_proj."""
    def quick_gelu(z):
        return z * (1.0 / (1.0 + np.exp(-1.702 * z)))

    def attention(y):
        return self_attention(y, p, heads)

    def mlp(y):
        return quick_gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = x + attention(layer_norm(x, p["ln1_g"], p["ln1_b"]))
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x


def vit_forward(image, params):
    """CLIP VisionTransformer.forward: conv1 + class_embedding + positional_embedding, ln_pre,
    transformer, ln_post on x[:, 0, :], then @ proj (here W_head, b_head)."""
    x = embed_image(image, params)
    x = layer_norm(x, params["ln_g"], params["ln_b"])          # ln_pre
    for resblock in params["blocks"]:
        x = encoder_block(x, resblock, params["heads"])
    x = layer_norm(x[0], params["ln_g"], params["ln_b"])       # ln_post
    return x @ params["W_head"] + params["b_head"]
