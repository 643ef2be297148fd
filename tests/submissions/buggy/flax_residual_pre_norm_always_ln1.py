"""Blind round 44 (b44_10, issue 38): encoder_block ported from a Flax ViT (code-search file id
24482979312: ResidualPreNorm `func(nn.LayerNorm()(inputs)) + inputs`, FeedForward,
MHDPAttention).

Mistakes:
1. encoder_block: the nested residual_pre_norm helper always normalises with ln1_g/ln1_b, so
   the MLP sublayer uses ln1's parameters instead of ln2_g/ln2_b.

Grader: at blind time (0fc72e8) and now, named: "In `encoder_block`, `layer_norm(x,
p['ln2_g'], p['ln2_b'], eps)` is given p['ln1_g'], p['ln1_b']: the parameters of the step
before it ..." on encoder-block; vit-checkpoint observes encoder_block. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5)."""

    def residual_pre_norm(func, inputs):
        return func(layer_norm(inputs, p["ln1_g"], p["ln1_b"])) + inputs

    def feed_forward(inputs):
        out = inputs @ p["W1"] + p["b1"]
        out = gelu(out)
        out = out @ p["W2"] + p["b2"]
        return out

    def mhdp_attention(inputs):
        return self_attention(inputs, p, heads)

    x = residual_pre_norm(mhdp_attention, x)
    x = residual_pre_norm(feed_forward, x)
    return x
