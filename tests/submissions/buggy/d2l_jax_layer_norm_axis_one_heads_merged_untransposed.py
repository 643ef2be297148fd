"""Blind round 17 (b17_08, issue 38): layer_norm and self_attention ported from d2l.ai's attention
and ViT chapters (JAX tab: transpose_qkv / transpose_output, a hand-written layer norm for a
(batch, features) matrix).

Mistakes:
1. layer_norm takes its statistics over axis 1, `X.mean(axis=1, keepdims=True)`, instead of the
   last axis: right on (T, d), wrong on (B, T, d), an AxisError on a 1-D token.
2. self_attention's transpose_output merges the heads (heads, T, d_h) with `X.reshape(T, -1)`
   without moving the head axis back first (shows only with several heads).

Grader: at blind time and now, both named (the mean and variance over axis 1 instead of -1, one
slip at 2 places; the merge's transpose removed); why-positions gets its equivariance checklist
(ALIASES). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def layer_norm(X, gamma, beta, eps=1e-6):
    """d2l's hand-written layer norm for a (batch, features) matrix: statistics over axis 1."""
    mean = X.mean(axis=1, keepdims=True)
    var = ((X - mean) ** 2).mean(axis=1, keepdims=True)
    X_hat = (X - mean) / np.sqrt(var + eps)
    return gamma * X_hat + beta


def self_attention(X, p, heads, causal=False):
    """d2l MultiHeadAttention: transpose_qkv, DotProductAttention, transpose_output, W_o."""
    num_steps, num_hiddens = X.shape
    num_heads = heads
    if num_hiddens % num_heads:
        raise ValueError("num_hiddens must be divisible by num_heads")

    def transpose_qkv(X):
        X = X.reshape(X.shape[0], num_heads, -1)
        return X.transpose(1, 0, 2)

    def transpose_output(X):
        return X.reshape(num_steps, -1)

    queries = transpose_qkv(np.dot(X, p["Wq"]) + p["bq"])
    keys = transpose_qkv(np.dot(X, p["Wk"]) + p["bk"])
    values = transpose_qkv(np.dot(X, p["Wv"]) + p["bv"])
    d = queries.shape[-1]
    scores = np.matmul(queries, keys.transpose(0, 2, 1)) / math.sqrt(d)
    if causal:
        valid = np.arange(num_steps)[None, :] <= np.arange(num_steps)[:, None]
        scores = np.where(valid, scores, -1e6)
    attention_weights = softmax(scores, axis=-1)
    output = np.matmul(attention_weights, values)
    output_concat = transpose_output(output)
    return np.dot(output_concat, p["Wo"]) + p["bo"]
