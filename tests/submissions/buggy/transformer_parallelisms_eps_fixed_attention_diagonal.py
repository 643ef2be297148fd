"""Blind round 30 (b30_13, issue 38): ported from lweitkamp/transformer_parallelisms
(numpy_sequential/norm.py LayerNorm.forward, attention.py Attention.forward: in_proj to
(3 * heads, d_hidden), einsum attention).

Mistakes:
1. layer_norm: eps hard-coded 1e-5 in the square root, the eps argument ignored.
2. self_attention: the source's einsum "hss, shm -> shm" takes only the diagonal of the
   attention matrix: token s gets A[s, s] * v[s]. Right only for a row whose weight is all on
   itself (a causal row 0, or T = 1).

Grader: at blind time, named: "`eps` is fixed at 1e-05 (a library's usual default) whatever
is given" on layer-norm; the attention diagonal observed only ("returns the expected values only
in 1 of 4 rows (row 0)"). Now the diagonal is named too, by the error model's `kept_diagonal`
(fixed.py): "each token gets only its own value `v` scaled by its attention weight on itself,
the diagonal of `softmax(scores)`" on no-causal-mask and multi-head-attention.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'no-causal-mask': 'op:kept_diagonal:self_attention/attention:v-times-diagonal',
          'multi-head-attention': 'op:kept_diagonal:self_attention/attention:v-times-diagonal'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise over the last dimension, then weight and bias (numpy_sequential LayerNorm.forward)."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    std = np.sqrt(var + 1e-05)
    normed = (x - mean) / std
    return gamma * normed + beta


def self_attention(x, p, heads, causal=False):
    """numpy_sequential Attention.forward for one sequence: in_proj to (3 * heads, d_hidden), einsum attention."""
    s, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")
    d_hidden = d_model // heads
    scale = np.sqrt(d_hidden)
    in_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1).reshape(d_model, 3 * heads, d_hidden)
    in_b = np.concatenate([p["bq"], p["bk"], p["bv"]]).reshape(3 * heads, d_hidden)
    qkv = np.einsum("sd, dhm -> shm", x, in_w) + in_b
    q, k, v = np.split(qkv, 3, axis=1)
    attention_weights = np.einsum("shm, zhm -> hsz", q, k) / scale
    if causal:
        mask = np.expand_dims(np.tri(s, s, dtype=bool), 0)
        attention_weights = np.where(mask, attention_weights, float("-inf"))
    attention = softmax(attention_weights, axis=-1)
    y = np.einsum("hss, shm -> shm", attention, v)
    out_w = p["Wo"].reshape(heads, d_hidden, d_model)
    return np.einsum("shm, hmd -> sd", y, out_w) + p["bo"]
