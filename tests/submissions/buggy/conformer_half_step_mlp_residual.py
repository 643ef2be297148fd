"""Blind round 14 (b14_13, issue 38): the Conformer block (Gulati et al. 2020; torchaudio
ConformerLayer), whose feed-forward modules add half a step, "x = x + 0.5 * ffn(x)".

Mistake: encoder_block's MLP residual is x + 0.5 * mlp(layer_norm(x)) (right: the whole
branch). The attention half is right.

Grader: named at blind time and now ("added back scaled by 0.5 ... (as Macaron's and
Conformer's half-step feed-forward is)").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual_scaled:encoder_block:mlp-branch-times-0.5'}


def encoder_block(x, p, heads):
    """Pre-LN block with the Conformer's half-step feed-forward residual (torchaudio ConformerLayer:
    x = x + 0.5 * self.ffn1(x))."""
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + 0.5 * (gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
