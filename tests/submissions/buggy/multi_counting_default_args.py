"""Two bugs, and a helper bound as a default argument: num_patches floor-divides (so patches that
do not tile are counted instead of refused) and layer_norm divides by the variance, not its square root.
The correct encoder_block takes its LayerNorm as a default argument, `_ln=layer_norm`."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count', 'layer-norm': 'layer_norm_divides_by_variance'}
CORRECT = ("encoder_block",)  # written in a student's style: they keep every point


def num_patches(H, W, P):
    return (H // P) * (W // P)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / (var + eps) * gamma + beta


def encoder_block(x, p, heads, _ln=layer_norm):
    x = x + self_attention(_ln(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + gelu(_ln(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
