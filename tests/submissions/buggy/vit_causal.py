"""vit_forward runs its own loop of blocks instead of calling encoder_block, and its attention
uses GPT's causal mask, self_attention(..., causal=True): each patch sees only the earlier ones.
(Its encoder_block is right: the bug is only in vit_forward's own loop.)"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_causal'}


def vit_forward(image, params):
    x = embed_image(image, params)
    heads = params["heads"]
    for b in params["blocks"]:
        x = x + self_attention(layer_norm(x, b["ln1_g"], b["ln1_b"]), b, heads, causal=True)
        h = gelu(layer_norm(x, b["ln2_g"], b["ln2_b"]) @ b["W1"] + b["b1"])
        x = x + h @ b["W2"] + b["b2"]
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
