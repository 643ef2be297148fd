"""Blind round 2 (issue 38), a port with its own mistakes: self_attention splits heads with
reshape(T, head_dim, heads) so head h takes the interleaved columns h, h+heads, ... (and merges
back the same way); encoder_block forgets the MLP's second bias b2.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_interleaved', 'encoder-block': 'op:term:encoder_block/mlp/linear.2:drop-b'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    hd = d // heads
    def split(t):
        return t.reshape(T, hd, heads).transpose(2, 0, 1)   # (heads, T, hd)
    q = split(x @ p["Wq"] + p["bq"])
    k = split(x @ p["Wk"] + p["bk"])
    v = split(x @ p["Wv"] + p["bv"])
    s = np.einsum("htd,hsd->hts", q, k) / math.sqrt(hd)
    if causal:
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    o = np.einsum("hts,hsd->htd", softmax(s), v)
    o = o.transpose(1, 2, 0).reshape(T, d)
    return o @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
    return x + h @ p["W2"]
