"""Blind round 2 (issue 38), a port with its own mistakes: layer_norm uses the unbiased variance
(ddof=1, as torch.var does by default); the block's GELU is the tanh form with the 0.044715 x^3
term forgotten: 0.5x(1 + tanh(sqrt(2/pi) x)).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased', 'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.drop-0.044715x3'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def encoder_block(x, p, heads):
    def act(z):
        return 0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * z))
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = act(y @ p["W1"] + p["b1"])
    return x + y @ p["W2"] + p["b2"]
