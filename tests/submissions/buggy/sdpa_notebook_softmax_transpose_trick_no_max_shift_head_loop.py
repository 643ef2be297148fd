"""Blind round 48 (b48_03, issue 38): softmax and self_attention ported from a numpy "scaled
dot-product attention" notebook (code-search file id 18432027473; the same softmax in ids
23298726448, 41025807942, 26447598641): `def softmax(x): return (np.exp(x).T / np.sum(np.exp(x),
axis=-1)).T`, an additive mask (`np.tril(ones)`, 0 -> -inf, 1 -> 0) and
`scaled_dot_product_attention(q, k, v, mask)`. self_attention is a loop over heads on 2-D column
slices, and it is right.

Mistakes:
1. `softmax`: no max subtraction: inputs near 1000 overflow to nan; rows far below 0 underflow
   to 0/0 = nan; self_attention with large scores returns nan rows.
2. `softmax`: `axis` ignored; the `.T` trick normalises only the last axis of a 2-D array:
   axis=0 on 2-D input gives the last axis's softmax; batched (B, T, d) input raises when B != T
   and is silently wrong when B == T. 1-D and 2-D input with axis=-1 are right.

Grader: at blind time (4b7c886d) and now, named: "In `softmax`, `axis` is taken as its default,
-1, whatever is given." and "In `softmax`, the max subtraction `np.max(x, axis=axis,
keepdims=True)` is left out of `x - np.max(x, axis=axis, keepdims=True)`." on stable-softmax's
visible checks, and on its hidden check "2 mistakes at once: (1) ... the max subtraction ... (2)
In `softmax`, `e / np.sum(e, axis=axis, keepdims=True)` is written `(e.T / np.sum(e,
axis=-1)).T`, the transpose trick for the rows of a 2-D array ..."; the property check gives its
checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'
                            '+op:divided_by_transpose:softmax:sum-by-transpose-last-axis'}


def softmax(x, axis=-1):
    """The notebook's softmax: `(np.exp(x).T / np.sum(np.exp(x), axis=-1)).T`."""
    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T


def self_attention(x, p, heads, causal=False):
    """A loop over heads, each calling the notebook's scaled_dot_product_attention(q, k, v, mask)."""
    L, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")
    head_dim = d_model // heads

    def scaled_dot_product_attention(q, k, v, mask=None):
        d_k = q.shape[-1]
        scaled = np.matmul(q, k.T) / math.sqrt(d_k)
        if mask is not None:
            scaled = scaled + mask
        attention = softmax(scaled)
        out = np.matmul(attention, v)
        return out, attention

    mask = None
    if causal:
        mask = np.tril(np.ones((L, L)))
        mask[mask == 0] = -np.inf
        mask[mask == 1] = 0

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    values = []
    for h in range(heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        out, _ = scaled_dot_product_attention(q[:, cols], k[:, cols], v[:, cols], mask)
        values.append(out)
    values = np.concatenate(values, axis=-1)
    return values @ p["Wo"] + p["bo"]
