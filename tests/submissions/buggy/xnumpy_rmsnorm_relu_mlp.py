"""Blind round 75 (b75_05, issue 38): layer_norm and encoder_block ported from sueszli/xnumpy
`leaderboard/bench_numpy.py` (numpy microGPT: `rmsnorm_fwd`, a `np.triu(np.full(..., -1e10), 1)`
causal mask, `x_pre_attn`/`h_pre` names, a ReLU MLP).

Mistakes:
1. layer_norm (line 73 of the file as delivered): rmsnorm, `x * (mean(x*x) + eps) ** -0.5 * gamma
   + beta`: no mean subtracted, divided by the RMS. Wrong on rows with a non-zero mean.
2. encoder_block (line 106): the MLP uses ReLU, `np.maximum(0, h_pre)`, instead of GELU. Wrong on
   every input.

Grader: at blind time (db1f63a6) and now, 93/110. Mistake 1 named on layer-norm ("the
statistics are taken about zero, as RMSNorm ... LayerNorm subtracts each token's mean first.";
its property's checklist, mean_not_subtracted, in ALIASES), mistake 2 on encoder-block ("The MLP
uses ReLU; ViT's MLP uses GELU"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:rms-norm',
          'encoder-block': 'encoder_relu'}
ALIASES = ('mean_not_subtracted',)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    rms = (np.mean(x * x, axis=-1, keepdims=True) + eps) ** -0.5
    return x * rms * gamma + beta


def encoder_block(x: np.ndarray, p: dict, heads: int) -> np.ndarray:
    x_pre_attn = x
    xn_attn = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = self_attention(xn_attn, p, heads) + x_pre_attn

    x_pre_mlp = x
    xn_mlp = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h_pre = xn_mlp @ p["W1"] + p["b1"]
    h = np.maximum(0.0, h_pre)
    x = h @ p["W2"] + p["b2"] + x_pre_mlp
    return x
