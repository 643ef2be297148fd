"""Blind round 3 (b3_08, issue 38), a port with two mistakes: self_attention after minGPT's
CausalSelfAttention takes the scale 1 / sqrt(k.shape[-1]) before k is split into heads, so the
scores are divided by sqrt(d), not sqrt(d_h) (right with heads=1); encoder_block uses the
original Transformer / BERT post-LN order, x = LN(x + attn(x)); x = LN(x + mlp(x)).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d',
          'encoder-block': 'encoder_post_ln'}


def self_attention(x, p, heads, causal=False):
    """minGPT CausalSelfAttention.forward, numpy, one sequence."""
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    scale = 1.0 / math.sqrt(k.shape[-1])
    k = k.reshape(T, heads, C // heads).swapaxes(0, 1)
    q = q.reshape(T, heads, C // heads).swapaxes(0, 1)
    v = v.reshape(T, heads, C // heads).swapaxes(0, 1)
    att = (q @ k.swapaxes(-2, -1)) * scale
    if causal:
        bias = np.tril(np.ones((T, T)))
        att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = att @ v
    y = y.swapaxes(0, 1).reshape(T, C)
    return y @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Transformer encoder layer (Vaswani et al. / BERT ordering)."""
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    ff = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return layer_norm(x + ff, p["ln2_g"], p["ln2_b"])
