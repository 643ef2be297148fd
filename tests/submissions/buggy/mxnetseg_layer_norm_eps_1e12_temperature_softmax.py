"""Blind round 36 (b36_02, issue 38): layer_norm and self_attention ported from BebDong/MXNetSeg,
mxnetseg/models/backbone/vit.py (Gluon _TransformerEncoder with layer_norm_eps=1e-12,
_MultiHeadAttention with F.softmax(scores, temperature=head_units ** 0.5)).

Mistakes:
1. layer_norm's default eps is 1e-12 (MXNetSeg's layer_norm_eps), not the lecture's 1e-6: rows of
   tiny variance come out far off. (The temperature-softmax self_attention is correct.)

Grader: at blind time (9ebbf4a) and now, named: "In `layer_norm`, eps is 1e-12; the lecture's
is 1e-06." on layer-norm's visible "eps inside the square root" check (now named eps below
about 1e-09, as the calls cannot tell 1e-12 from 0, and said with the student's own
`eps=1e-12`). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09'}


def layer_norm(x, gamma, beta, eps=1e-12):
    """nn.LayerNorm(epsilon=layer_norm_eps) as _TransformerEncoder builds it."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def self_attention(x, p, heads, causal=False):
    """_MultiHeadAttention.hybrid_forward for one sequence (T, units)."""
    T, units = x.shape
    if units % heads != 0:
        raise ValueError(f"units {units} not divisible by {heads} heads")
    head_units = units // heads
    scale = head_units ** 0.5

    def F_softmax(data, temperature=1.0):        # mx F.softmax(..., temperature=t)
        return softmax(data / temperature, axis=-1)

    att_qkv = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=-1)
    query, key, value = np.split(att_qkv, 3, axis=-1)
    query = np.transpose(query.reshape(T, heads, -1), axes=(1, 0, 2))
    key = np.transpose(key.reshape(T, heads, -1), axes=(1, 0, 2))
    value = np.transpose(value.reshape(T, heads, -1), axes=(1, 0, 2))
    scores = np.matmul(query, np.transpose(key, (0, 2, 1)))     # batch_dot(transpose_b=True)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    scores = F_softmax(scores, temperature=scale)
    out = np.transpose(np.matmul(scores, value), axes=(1, 0, 2))
    out = out.reshape(T, -1)
    return out @ p["Wo"] + p["bo"]
