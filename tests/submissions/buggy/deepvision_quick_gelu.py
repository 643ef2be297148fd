"""Blind round 64 (b64_13, issue 38): gelu ported from DavidLandup0/deepvision
`deepvision/activations/quick_gelu.py` (QuickGELU). encoder_block is the solution's, as in the
file: it is listed here because encoder-block's `uses:` names encoder_block, not the gelu it
calls.

Mistakes:
15. gelu (line 171 of the file as delivered): `x * sigmoid(1.702 * x)`, CLIP's QuickGELU, neither
    the exact erf GELU nor the accepted tanh form (off by up to about 0.02). Wrong on any input
    through encoder_block and vit_forward.

Grader: at blind time (0cd43d22) and now, 99/110, named. Mistake 15 on encoder-block's two checks
("In `encoder_block` (in the MLP step), the activation is CLIP's quick GELU, x * sigmoid(1.702 x)
where the student API's activation is GELU (exact, x * Phi(x); its tanh approximation is
accepted)."); vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def gelu(x):
    """GELU for the MLP: QuickGELU, x * sigmoid(1.702 * x)."""
    x = np.asarray(x, dtype=float)
    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
