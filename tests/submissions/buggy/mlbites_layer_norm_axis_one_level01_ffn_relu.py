"""Blind round 52 (b52_04, issue 38): layer_norm ported from taesiri/MLBites layernorm_forward
for (N, D) input (`np.mean(x, axis=1, keepdims=True)`, `np.var(x, axis=1, keepdims=True)`);
encoder_block from the "Level 01" numpy `ffn`/`encoder_block_forward` (`np.maximum(0, x @ w1 +
b1)`), adapted to pre-LN. The module-level `ffn` helper is nested in encoder_block here (a
fixture replaces the solution's functions only).

Mistakes:
1. layer_norm normalises over `axis=1`: right for 2-D (T, d) only. On batched (B, T, d) it
   normalises over T; on 1-D (d,) it raises AxisError.
2. encoder_block's MLP keeps the source's ReLU (`np.maximum(0, ...)`) instead of GELU. vit_forward
   inherits it.

Grader: at blind time (db53909c) and now, both named: M1 on layer-norm ("One slip, made at 2 places:
(1) In `layer_norm`, your values are the lecture's with `np.mean(x, keepdims=True, axis=1)` in place
of `np.mean(x, axis=-1, keepdims=True)`: over axis 1 instead of axis -1 ... (2) ... `np.var(x,
keepdims=True, axis=1)` in place of `np.var(x, axis=-1, keepdims=True)` ..."), M2 on encoder-block
("The MLP uses ReLU; ViT's MLP uses GELU, x * Phi(x) (the tanh approximation is fine).");
vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm forward pass.

    Normalizes across the feature dimension D for each sample (row) independently:
        x_hat = (x - mean) / sqrt(var + eps)
        y = x_hat * gamma + beta
    """
    mu = np.mean(x, axis=1, keepdims=True)
    var = np.var(x, axis=1, keepdims=True)
    x_hat = (x - mu) / np.sqrt(var + eps)
    y = x_hat * gamma + beta
    return y


def encoder_block(x, p, heads):
    """Pre-LN Transformer encoder block."""
    def ffn(x, w1, b1, w2, b2):
        hidden = np.maximum(0, x @ w1 + b1)
        return hidden @ w2 + b2

    attn_out = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + attn_out
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])
    return x
