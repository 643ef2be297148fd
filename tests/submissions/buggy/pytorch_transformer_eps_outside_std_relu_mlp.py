"""Blind round 27 (b27_04, issue 38): layer_norm and encoder_block ported from Umar Jamil's
pytorch-transformer (model.py: LayerNormalization.forward, `alpha * (x - mean) / (std + eps) +
bias`; FeedForwardBlock with ReLU; ResidualConnection, `x + sublayer(norm(x))`). The student's
top-level helpers `_feed_forward_block` and `_residual_connection` are nested in encoder_block
here: the builder replaces only the solution's own definitions.

Mistakes:
1. layer_norm divides by (std + eps), eps outside the square root: shows on tokens whose variance
   is tiny, or with a large eps.
2. encoder_block's MLP uses ReLU, not GELU.

Grader: at blind time and now, both named: eps outside the square root on layer-norm; the ReLU MLP
on encoder-block; vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNormalization.forward: alpha * (x - mean) / (std + eps) + bias."""
    mean = x.mean(axis=-1, keepdims=True)  # (batch, seq_len, 1)
    std = x.std(axis=-1, keepdims=True)    # (batch, seq_len, 1)
    return gamma * (x - mean) / (std + eps) + beta


def encoder_block(x, p, heads):
    def _feed_forward_block(x, p):
        """(batch, seq_len, d_model) --> (batch, seq_len, d_ff) --> (batch, seq_len, d_model)"""
        return np.maximum(0.0, x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    def _residual_connection(x, sublayer, g, b):
        return x + sublayer(layer_norm(x, g, b))

    x = _residual_connection(x, lambda y: self_attention(y, p, heads), p["ln1_g"], p["ln1_b"])
    x = _residual_connection(x, lambda y: _feed_forward_block(y, p), p["ln2_g"], p["ln2_b"])
    return x
