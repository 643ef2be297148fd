"""An encoder block that writes both LayerNorms inline with torch.var's default, the unbiased
variance (ddof=1)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:ddof:encoder_block/layer_norm:var.ddof=1'
                           '+op:ddof:encoder_block/layer_norm.2:var.ddof=1'}


def encoder_block(x, p, heads):
    def norm(t, g, b, eps=1e-6):
        mu = t.mean(-1, keepdims=True)
        return (t - mu) / np.sqrt(t.var(-1, ddof=1, keepdims=True) + eps) * g + b

    x = x + self_attention(norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + gelu(norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
