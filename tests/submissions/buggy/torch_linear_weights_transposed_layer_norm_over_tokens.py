"""Blind round 8 (b8_03, issue 38): self_attention on torch's F.linear, and a LayerNorm with
BatchNorm's statistics.

Mistakes:
1. self_attention: every projection is `F.linear(x, W, b) = x @ W.T + b` (torch stores
   nn.Linear weights as (out, in); pytorch/pytorch#129834, #2159), so Wq, Wk, Wv and Wo are all
   used transposed. Shows always (unless the weights are symmetric).
2. layer_norm: the mean and variance over axis 0, per feature across the tokens, as BatchNorm1d
   does (Kyubyong/transformer#40). Shows on 2-D+ inputs with more than one row.

Grader: both named: op:transpose ("in each of its 4 calls of `linear`, `x @ W` uses `W`
transposed (torch's nn.Linear stores weights as (out, in) ...)") and layer_norm_wrong_axis ("You
normalised over the tokens (axis 0)").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_wrong_axis',
          'multi-head-attention': 'op:transpose:self_attention/linear*:W.T-added'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    def _linear(input, weight, bias):
        # torch.nn.functional.linear: y = x A^T + b
        return input @ weight.T + bias
    tgt_len, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    scaling = float(head_dim) ** -0.5
    q = _linear(x, p["Wq"], p["bq"]) * scaling
    k = _linear(x, p["Wk"], p["bk"])
    v = _linear(x, p["Wv"], p["bv"])
    q = q.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    k = k.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    attn_output_weights = q @ k.transpose(0, 2, 1)
    if causal:
        attn_mask = np.triu(np.full((tgt_len, tgt_len), -np.inf), k=1)
        attn_output_weights = attn_output_weights + attn_mask
    attn_output_weights = softmax(attn_output_weights, axis=-1)
    attn_output = attn_output_weights @ v
    attn_output = attn_output.transpose(1, 0, 2).reshape(tgt_len, embed_dim)
    return _linear(attn_output, p["Wo"], p["bo"])


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis."""
    x = np.asarray(x, dtype=float)
    sample_mean = x.mean(axis=0, keepdims=True)
    sample_var = x.var(axis=0, keepdims=True)
    x_hat = (x - sample_mean) / np.sqrt(sample_var + eps)
    return gamma * x_hat + beta
