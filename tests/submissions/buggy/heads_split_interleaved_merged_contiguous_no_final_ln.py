"""Lab 4 submission.

Mistakes (2):
- self_attention splits the heads with reshape(T, d_h, heads), so head h takes the
  interleaved columns h, h + heads, ... instead of the contiguous block. Only with >1 head.
- vit_forward skips the final layer_norm (ln_g, ln_b) before the head.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'vit-forward': 'vit_final_ln_skipped'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        q = Q.reshape(T, d_h, heads)[:, :, h]
        k = K.reshape(T, d_h, heads)[:, :, h]
        v = V.reshape(T, d_h, heads)[:, :, h]
        s = q @ k.T / np.sqrt(d_h)
        if causal:
            s = s + np.triu(np.full((T, T), -1e9), 1)
        outs.append(softmax(s) @ v)
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    cls = x[0]
    return cls @ params["W_head"] + params["b_head"]
