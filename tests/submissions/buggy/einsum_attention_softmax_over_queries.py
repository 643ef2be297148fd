"""Lab 4 submission with einsum attention.

Mistake (1): self_attention normalises the attention over the query axis (axis=-2 of the
(heads, T_q, T_k) scores) instead of over the keys (axis=-1).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_softmax_wrong_axis'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention with einsum; (T, d) -> (T, d)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide d={d}")
    dh = d // heads
    Wq = p["Wq"].reshape(d, heads, dh)
    Wk = p["Wk"].reshape(d, heads, dh)
    Wv = p["Wv"].reshape(d, heads, dh)
    q = np.einsum("td,dhe->hte", x, Wq) + p["bq"].reshape(heads, 1, dh)
    k = np.einsum("td,dhe->hte", x, Wk) + p["bk"].reshape(heads, 1, dh)
    v = np.einsum("td,dhe->hte", x, Wv) + p["bv"].reshape(heads, 1, dh)
    logits = np.einsum("hqe,hke->hqk", q, k) / np.sqrt(dh)
    if causal:
        logits = np.where(np.tril(np.ones((T, T))) > 0, logits, -1e30)
    weights = softmax(logits, axis=1)
    o = np.einsum("hqk,hke->qhe", weights, v).reshape(T, d)
    return o @ p["Wo"] + p["bo"]
