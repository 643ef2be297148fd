"""Blind round 34 (b34_03, issue 38): layer_norm and encoder_block ported from
uesina15-max/Transformer-algorithm-application-numpy- (Transformer-algorithm-application-numpy.py:
LayerNorm, TransformerBlock.forward with its feed-forward). The source's `linear` and
`feed_forward` are nested in encoder_block.

Mistakes:
1. encoder_block: post-LN, as the source's block (`x = norm1(x + attn(x))`, `out = norm2(x +
   ff(x))`), instead of the lecture's pre-LN.
2. layer_norm: the source's default `eps=1e-5` instead of 1e-6 (shows on tokens of tiny variance).

Grader: at blind time (5712eea) and now, named: "That is a post-LN block (LayerNorm after each
residual sum ...)" on encoder-block (graded with the grader's layer_norm standing in) and "In
`layer_norm`, eps is 1e-05; the lecture's is 1e-06." on layer-norm; vit-checkpoint observes
them. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05', 'encoder-block': 'encoder_post_ln'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    std = np.sqrt(var + eps)
    x_norm = (x - mean) / std
    out = gamma * x_norm + beta
    return out


def encoder_block(x, p, heads):
    """TransformerBlock.forward: attention, add & norm, feed-forward, add & norm."""

    def linear(x, W, b):
        return x @ W + b

    def feed_forward(x):
        h = gelu(linear(x, p["W1"], p["b1"]))
        return linear(h, p["W2"], p["b2"])

    attn_out = self_attention(x, p, heads)
    x = layer_norm(x + attn_out, p["ln1_g"], p["ln1_b"])
    ff_out = feed_forward(x)
    out = layer_norm(x + ff_out, p["ln2_g"], p["ln2_b"])
    return out
