"""Blind round 2 (issue 38), a port with its own mistakes: self_attention scales the scores by
1/sqrt(d), the full width, instead of 1/sqrt(d_h) (only differs with several heads); layer_norm
adds eps after the square root (x - mean) / (std + eps).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside', 'multi-head-attention': 'attention_scale_d', 'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = np.mean(x, axis=-1, keepdims=True)
    std = np.std(x, axis=-1, keepdims=True)
    return gamma * (x - mu) / (std + eps) + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    head_dim = d // heads
    scale = d ** -0.5
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        sl = slice(h * head_dim, (h + 1) * head_dim)
        s = q[:, sl] @ k[:, sl].T * scale
        if causal:
            s = s + np.triu(np.full((T, T), -np.inf), k=1)
        outs.append(softmax(s, axis=-1) @ v[:, sl])
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
