"""Blind round 5 (b5_11, issue 38): encoder_block after OpenAI CLIP's ResidualAttentionBlock (ln_1,
attn, ln_2, mlp with c_fc, QuickGELU, c_proj).

Mistakes (both in encoder_block):
1. the MLP activation is CLIP's QuickGELU, x * sigmoid(1.702 x), not the exact (or tanh) GELU
   the lecture's block uses. Shows on every input (differences up to about 0.02 per unit).
2. the second norm uses the first norm's parameters (ln1_g, ln1_b; copy-paste of the attention
   sub-layer). Shows whenever ln2 differs from ln1 (every random block).

Grader: Both are named, together, by one hint.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'
                           '+op:activation:encoder_block/mlp:act=quick_gelu'}


def encoder_block(x, p, heads):
    """ResidualAttentionBlock: x + attn(ln_1(x)), then x + mlp(ln_2(x))."""
    def quick_gelu(z):
        return z * (1.0 / (1.0 + np.exp(-1.702 * z)))

    def mlp(h):
        return quick_gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln1_g"], p["ln1_b"]))
    return x
