"""Blind round 75 (b75_03, issue 38): self_attention ported from antoineach/antoineach.github.io
`assets/img/multiHeadAttention.md` (mermaid diagram: fused QKV -> Reshape (B, N, H, 3D/H) ->
Permute -> Chunk).

Mistakes:
1. self_attention (lines 104-110 of the file as delivered): Wq|Wk|Wv concatenated into one (d, 3d)
   projection, reshaped to (N, H, 3D/H) and split in three along the last axis: with heads > 1
   each head's q, k, v take mixed columns. Right with one head only, causal or not.

Grader: at blind time (db1f63a6) and now, 96/110. Named on multi-head-attention and
no-causal-mask ("q, k, v come from one fused product ... split per token as (heads, 3, d_h) ...
Reshape to (T, 3, heads, d_h) first."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major'}


def self_attention(x, p, heads, causal=False):
    N, D = x.shape
    if D % heads:
        raise ValueError("D must be divisible by the number of heads")
    H = heads

    # Linear QKV: one fused projection (in_dim, 3*D)
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    x_proj = x @ W_qkv + b_qkv                      # (N, 3*D)

    xr = x_proj.reshape(N, H, 3 * D // H)           # (N, H, 3*D/H)
    xp = xr.transpose(1, 0, 2)                      # (H, N, 3*D/H)
    q, k, v = np.split(xp, 3, axis=-1)              # each (H, N, D/H)

    scores = q @ k.transpose(0, 2, 1)               # (H, N, N)
    scores = scores / math.sqrt(D // H)             # scale by sqrt(D/H)
    if causal:
        mask = np.tril(np.ones((N, N), dtype=bool))
        scores = np.where(mask, scores, -np.inf)    # apply mask (optional)
    attn = softmax(scores, axis=-1)                 # (H, N, N)

    out_heads = attn @ v                            # (H, N, D/H)
    out = out_heads.transpose(1, 0, 2).reshape(N, D)  # (N, D)
    return out @ p["Wo"] + p["bo"]                  # Linear out
