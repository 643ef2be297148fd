"""Blind round 73 (b73_11, issue 38): num_patches and self_attention ported from
njkrichardson/numpygrad `src/numpygrad/ops/attention.py` (and `nn/layer_norm.py`).

Mistakes:
1. num_patches (line 13 of the file as delivered): `H * W / P ** 2` returns a float (196.0); its
   num_tokens, which adds to it, too. The values are right.
2. self_attention (line 111): `merged @ p["Wo"].T`, the source's torch-style `W.T` kept for the
   output projection only. Wrong on every input.

Grader: at blind time (6245b55a) and now, 90/110. Mistake 1 named on patch-count ("the number is right
but it is a float (at your line `return H * W / P ** 2`)"); mistake 2 on multi-head-attention and
no-causal-mask ("`p['Wo']` is used transposed, `x @ p['Wo'].T`"); vit-checkpoint observes
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'multi-head-attention': 'op:transpose:self_attention/linear.4:W.T-added',
          'no-causal-mask': 'op:transpose:self_attention/linear.4:W.T-added'}


def num_patches(H: int, W: int, P: int):
    if H % P != 0 or W % P != 0:
        raise ValueError(f"patch size {P} must divide H={H} and W={W}")
    return H * W / P ** 2


def self_attention(x, p, heads, causal=False):
    T, d_model = x.shape
    H = heads
    if d_model % H != 0:
        raise ValueError(f"d_model {d_model} not divisible by num_heads {H}")
    d_k = d_model // H
    scale = 1.0 / np.sqrt(d_k)

    # 1. Project
    Q = x @ p["Wq"] + p["bq"]  # (T, d_model)
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    # 2. Split heads -> (H, T, d_k)
    Q_h = Q.reshape(T, H, d_k).transpose(1, 0, 2)
    K_h = K.reshape(T, H, d_k).transpose(1, 0, 2)
    V_h = V.reshape(T, H, d_k).transpose(1, 0, 2)

    # 3. Scaled dot-product attention
    scores = Q_h @ K_h.transpose(0, 2, 1) * scale  # (H, T, T)
    if causal:
        attn_mask = np.triu(np.full((T, T), -np.inf), k=1)
        scores = scores + attn_mask
    exp = np.exp(scores - scores.max(axis=-1, keepdims=True))
    attn = exp / exp.sum(axis=-1, keepdims=True)  # (H, T, T)
    attn_out = attn @ V_h  # (H, T, d_k)

    # 4. Merge heads -> (T, d_model)
    merged = attn_out.transpose(1, 0, 2).reshape(T, d_model)

    # 5. Output projection
    out = merged @ p["Wo"].T + p["bo"]
    return out
