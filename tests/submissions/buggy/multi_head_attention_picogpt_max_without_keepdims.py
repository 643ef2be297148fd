"""picoGPT's mha ported to the lecture's signature, its softmax written inline with the max
taken without keepdims: right shapes for one head only, where the max of each key's column is
subtracted instead of each query row's."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:keepdims:self_attention/attention/softmax:max.keepdims'}


def self_attention(x, p, heads, causal=False):
    n_seq, n_embd = x.shape
    if n_embd % heads:
        raise ValueError("n_head must divide n_embd")
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    qs, ks, vs = (np.stack(np.split(t, heads, axis=-1)) for t in (q, k, v))
    w = qs @ ks.transpose(0, 2, 1) / np.sqrt(qs.shape[-1])
    if causal:
        w = w + (1 - np.tri(n_seq)) * -1e10
    e = np.exp(w - np.max(w, axis=-1))
    w = e / np.sum(e, axis=-1, keepdims=True)
    out = np.hstack(list(w @ vs))
    return out @ p["Wo"] + p["bo"]
