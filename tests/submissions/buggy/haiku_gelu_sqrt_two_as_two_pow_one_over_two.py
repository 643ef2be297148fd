"""Blind round 18 (b18_11, issue 38): gelu ported from jax.nn.gelu(approximate=False), in a
dm-haiku style file.

Mistake:
1. gelu writes sqrt(2) as `2 ** 1/2`, which Python reads as `(2 ** 1) / 2`: `x / 2 ** 1/2` is
   x / 4, so the MLP uses 0.5 * x * (1 + erf(x / 4)). encoder_block calls it; encoder_block itself
   is the student's, the solution's in all but spelling, listed here only so that its exercise may
   lose points (no `uses:` line names gelu).

Grader: at blind time and now, encoder-block's checklist only ("check ... the MLP step by step");
the precedence not named. Since the eleventh session it is named (an activation's square root written
`** 1/2`): every mistake is.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu.sqrt-as-half-power-unbracketed'}


def gelu(x):
    x = np.asarray(x, dtype=float)
    erf = np.vectorize(math.erf, otypes=[float])
    return 0.5 * x * (1 + erf(x / 2 ** 1/2))


def encoder_block(x, p, heads):
    h_norm = layer_norm(x, p["ln1_g"], p["ln1_b"])
    h_attn = self_attention(h_norm, p, heads)
    h = x + h_attn
    h_norm = layer_norm(h, p["ln2_g"], p["ln2_b"])
    h_dense = gelu(h_norm @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return h + h_dense
