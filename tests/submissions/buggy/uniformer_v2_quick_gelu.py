"""Blind round 69 (b69_04, issue 38): gelu ported from tnt305/Sport-Highlight-
`short_sport/video_trainer/architecture/models/uniformer_v2/activation.py` (QuickGELU).

Mistakes:
1. gelu (line 193 of the file as delivered): `x * sigmoid(1.702 x)`, the QuickGELU, neither
   erf nor tanh (max error about 0.02 near |x| ~ 2). Wrong on any non-zero input, through
   encoder_block and vit_forward.

Grader: at blind time (cb37e6da) and now, 99/110, named on encoder-block ("In `encoder_block`
(in the MLP step), the activation is CLIP's quick GELU, x * sigmoid(1.702 x)"): placed at the
MLP step that calls gelu; no exercise grades gelu alone. Every mistake named, so in buggy/.
(encoder_block is the solution's, here so that encoder-block counts as the exercise that uses
this gelu.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def gelu(x):
    """GELU, as QuickGELU in uniformer_v2/activation.py (tnt305/Sport-Highlight-)."""
    x = np.asarray(x, dtype=float)
    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))   # x * torch.sigmoid(1.702 * x)


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
