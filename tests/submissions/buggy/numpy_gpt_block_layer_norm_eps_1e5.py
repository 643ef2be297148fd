"""Blind round 56 (b56_12, issue 38): encoder_block ported from a numpy GPT block
(`TransformerBlock(..., eps: float = 1e-5)`, `h = layer_norm(x, self.ln1_w, self.ln1_b,
self.eps)`).

Mistakes:
21. Both layer norms in the block get `eps = 1e-5` (the source's and PyTorch's default) instead of
    the API's 1e-6. Small at unit scale (max |diff| 1.6e-5 on outputs of size ~3), large when a
    token's spread is small: x * 0.01 -> max |diff| 0.11, x * 0.001 -> 0.40.

Grader: at blind time (ba2d1546), nothing: 110/110 with no failed check ("17 exercises graded in
0.5 s: 17 with full marks, 0 with points lost"); every encoder-block case has tokens of unit
spread, where eps cannot show.
Now caught: encoder-block's visible check has tokens of small spread (~1e-3, as a freshly
initialised ViT gives its first block), whose variance is the order of eps. Now named there (the
error model's `constant` at encoder_block's eps): "In `encoder_block`, eps is 1e-05; the
lecture's is 1e-06." Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:constant:encoder_block:eps=1e-05'}


def encoder_block(x, p, heads):
    """Pre-norm block: LN -> attention -> residual, LN -> MLP -> residual."""
    eps = 1e-5
    h = layer_norm(x, p["ln1_g"], p["ln1_b"], eps)
    x = x + self_attention(h, p, heads)          # attention + residual
    h = layer_norm(x, p["ln2_g"], p["ln2_b"], eps)
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]  # MLP + residual
