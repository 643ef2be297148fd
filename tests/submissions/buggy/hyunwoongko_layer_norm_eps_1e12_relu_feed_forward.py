"""Blind round 31 (b31_08, issue 38): hyunwoongko/transformer, models/layers/layer_norm.py
(LayerNorm, eps=1e-12), models/layers/position_wise_feed_forward.py (PositionwiseFeedForward,
nested in encoder_block) and models/blocks/encoder_layer.py, made pre-LN.

Mistakes:
1. layer_norm: the default eps is the source's 1e-12, not 1e-6 (encoder_block and vit_forward
   call it without eps). Shows on rows of small variance.
2. encoder_block: the MLP is PositionwiseFeedForward with ReLU (`np.maximum(h, 0)`) where GELU
   belongs; the block is otherwise pre-LN with both residuals.

Grader: at blind time (fbf6cc7) and now, named: "In `layer_norm`, eps is 1e-12; the lecture's is
1e-06" on layer-norm (now named eps below about 1e-09, as the calls cannot tell 1e-12 from 0,
and said with the student's own `eps=1e-12`); "The MLP uses ReLU; ViT's MLP uses GELU" (encoder_relu) on encoder-block
(the grader's layer_norm standing in). vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-12):
    """LayerNorm.forward: '-1' means last dimension."""
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)          # unbiased=False
    out = (x - mean) / np.sqrt(var + eps)
    out = gamma * out + beta
    return out


def encoder_block(x, p, heads):
    """EncoderLayer.forward, with the norms moved in front of each sublayer (pre-LN, as ViT does)."""

    def position_wise_feed_forward(h):
        h = h @ p["W1"] + p["b1"]           # self.linear1
        h = np.maximum(h, 0)                # self.relu
        h = h @ p["W2"] + p["b2"]           # self.linear2
        return h

    # 1. compute self attention
    _x = x
    x = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    # 2. add
    x = x + _x
    # 3. positionwise feed forward network
    _x = x
    x = position_wise_feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    # 4. add
    x = x + _x
    return x
