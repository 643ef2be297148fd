"""vit_forward writes its blocks inline and drops the residual around attention:
x = self_attention(LN1(x)) instead of x = x + self_attention(LN1(x)). The MLP keeps its
residual. It never calls encoder_block."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_no_attention_residual'}


def vit_forward(image, params):
    tokens = embed_image(image, params)
    for p in params["blocks"]:
        tokens = self_attention(layer_norm(tokens, p["ln1_g"], p["ln1_b"]), p, params["heads"])
        hidden = layer_norm(tokens, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
        tokens = tokens + gelu(hidden) @ p["W2"] + p["b2"]
    tokens = layer_norm(tokens, params["ln_g"], params["ln_b"])
    return tokens[0] @ params["W_head"] + params["b_head"]
