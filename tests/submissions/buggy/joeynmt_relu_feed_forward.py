"""Blind round 59 (b59_14, issue 38): encoder_block ported from joeynmt/joeynmt
`joeynmt/transformer_layers.py` (TransformerEncoderLayer with layer_norm="pre", alpha = 1;
PositionwiseFeedForward with `nn.ReLU()`). The student's top-level `positionwise_feed_forward`
is nested in encoder_block here: the builder replaces only the solution's own definitions.

Mistakes:
23. encoder_block (the MLP in `positionwise_feed_forward`, line 135 of the file as delivered):
    ReLU, `np.maximum(h, 0)` (joeynmt's `nn.ReLU()`), instead of GELU. Wrong on any input;
    vit_forward inherits it.

Grader: at blind time (528b2ec3) and now, 99/110, named on encoder-block ("The MLP uses ReLU;
ViT's MLP uses GELU, x * Phi(x)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu'}


def encoder_block(x, p, heads):
    """TransformerEncoderLayer.forward with layer_norm="pre" and alpha = 1."""
    def positionwise_feed_forward(x, p):
        """Projects to ff_size and then back down to input_size."""
        h = x @ p["W1"] + p["b1"]
        h = np.maximum(h, 0.0)
        return h @ p["W2"] + p["b2"]

    residual = x
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)
    x = x + residual

    residual = x
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = positionwise_feed_forward(x, p) + residual
    return x
