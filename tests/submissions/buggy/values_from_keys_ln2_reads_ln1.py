"""Blind round 6 (b6_14, issue 38): copy-paste parameter mistakes in self_attention (loop over
heads) and encoder_block.

Mistakes:
1. self_attention: the values use the key weights, v = x @ Wk + bv (copy-paste of the k line).
   Shows whenever Wv != Wk.
2. encoder_block: the second layer_norm uses ln1_g, ln1_b instead of ln2_g, ln2_b. Shows whenever the
   two norms' parameters differ.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:parameter:self_attention:Wv-as-Wk',
          'no-causal-mask': 'op:parameter:self_attention:Wv-as-Wk',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention, one head at a time."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wk"] + p["bv"]
    out = np.empty((T, d))
    for h in range(heads):
        c = slice(h * d_h, (h + 1) * d_h)
        s = q[:, c] @ k[:, c].T / math.sqrt(d_h)
        if causal:
            s[np.triu_indices(T, 1)] = -np.inf
        out[:, c] = softmax(s) @ v[:, c]
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Pre-LN block."""
    attn_in = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(attn_in, p, heads)
    mlp_in = layer_norm(x, p["ln1_g"], p["ln1_b"])
    return x + gelu(mlp_in @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
