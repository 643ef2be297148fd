"""vit_forward writes its blocks inline and drops the residual around the MLP: each block ends
with x = mlp(LN2(x)) instead of x = x + mlp(LN2(x)). The MLP uses GELU's tanh approximation
(accepted). It never calls encoder_block."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_no_mlp_residual'}


def vit_forward(image, params):
    x = embed_image(image, params)
    n_heads = params["heads"]
    for i in range(len(params["blocks"])):
        blk = params["blocks"][i]
        x = x + self_attention(layer_norm(x, blk["ln1_g"], blk["ln1_b"]), blk, n_heads)
        z = layer_norm(x, blk["ln2_g"], blk["ln2_b"]) @ blk["W1"] + blk["b1"]
        z = 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))
        x = z @ blk["W2"] + blk["b2"]
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
