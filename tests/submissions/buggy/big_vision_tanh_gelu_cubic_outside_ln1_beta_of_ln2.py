"""Blind round 16 (b16_06, issue 38): gelu (tanh approximation, as flax.linen.gelu with
approximate=True) and encoder_block ported from big_vision's vit.py Encoder1DBlock.

Mistakes:
1. gelu computes tanh(sqrt(2/pi) * x + 0.044715 * x**3), the cubic term outside the sqrt(2/pi)
   factor, instead of tanh(sqrt(2/pi) * (x + 0.044715 * x**3)).
2. encoder_block's first LayerNorm uses ln1_g with ln2_b instead of ln1_b.

Grader: at blind time, both got only the encoder block's checklist. Nothing named.
Since session 17 both are named as one pair: `p['ln2_b']` read where `p['ln1_b']` belongs
(names.py's parameter), and GELU's tanh approximation with its brackets dropped
(alternatives.py's slip `c * x + 0.044715 * x ** 3` for `c * (x + 0.044715 * x ** 3)`, 6e-3 from
both GELUs, offered since APART is 5e-3): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': ('op:parameter:encoder_block:ln1_b-as-ln2_b'
                            '+op:activation_slip:encoder_block/mlp:'
                            'act=gelu_tanh.math.sqrt(2.0math.pi)-brackets-dropped')}


def gelu(x):
    """flax.linen.gelu(approximate=True)."""
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * x + 0.044715 * x ** 3))


def encoder_block(x, p, heads):
    """big_vision Encoder1DBlock: LN, MHA, residual; LN, MlpBlock, residual."""
    y = layer_norm(x, p["ln1_g"], p["ln2_b"])
    y = self_attention(y, p, heads)
    x = x + y
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + y
