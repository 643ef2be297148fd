"""minGPT's CausalSelfAttention ported to one (T, C) sequence with the heads first: minGPT's
`1.0 / math.sqrt(k.size(-1))` became `k.shape[1]`, which is T here (the tokens), not hs: told as
the scale it is, sqrt(T) (error_model/scales.py), not as the reference's `q.shape[-2]`."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(T)',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(T)'}


def self_attention(x, p, heads, causal=False):
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)   # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[1]))
    if causal:
        att = np.where(np.tril(np.ones((T, T))) == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = att @ v
    y = y.transpose(1, 0, 2).reshape(T, C)
    return y @ p["Wo"] + p["bo"]
