"""Blind round 5 (b5_03, issue 38): layer_norm and encoder_block written from a (tokens, dim) mental
picture (the original "Attention is all you need" block, as in many course homeworks).

Mistakes:
1. layer_norm: mean and variance over axis=1 (hard-coded) instead of the last axis. Right on
   (T, d) input; on batched (B, T, d) input it normalises over the tokens. Shows only on batched
   (3-D) input.
2. encoder_block: post-LN instead of pre-LN: x = LN1(x + attn(x)); x = LN2(x + mlp(x)).
   Shows on every input.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'encoder-block': 'encoder_post_ln'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise every token (row) of x: (T, d) -> (T, d)."""
    mu = np.mean(x, axis=1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta


def encoder_block(x, p, heads):
    """Transformer encoder layer: attention and MLP sub-layers, each with a residual and a norm."""
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    hidden = gelu(x @ p["W1"] + p["b1"])
    x = layer_norm(x + hidden @ p["W2"] + p["b2"], p["ln2_g"], p["ln2_b"])
    return x
