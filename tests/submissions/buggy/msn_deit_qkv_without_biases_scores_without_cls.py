"""Blind round 61 (b61_03, issue 38): attention_scores and self_attention ported from
facebookresearch/msn `src/deit.py` (VisionTransformer.interpolate_pos_encoding's
`npatch = x.shape[1] - 1`; Attention with the fused qkv `nn.Linear(dim, dim * 3, bias=qkv_bias)`,
`qkv_bias=False` by default, and timm's reshape/permute without the batch).

Mistakes:
5. self_attention (lines 102-103 of the file as delivered): the fused qkv weight has no bias (the
   source's default `qkv_bias=False`), so bq, bk and bv are ignored (bk alone would change
   nothing). Wrong whenever bq or bv != 0.
6. attention_scores (lines 25-26): `(T - 1) ** 2`, [CLS] left out (the source's
   `npatch = x.shape[1] - 1`). Wrong on any input.

Grader: at blind time (90d6c97e) and now, 90/110, both named. Mistake 5 on multi-head-attention's
three checks and no-causal-mask's two ("In `self_attention`, q, k and v are projected without
their biases ..."); mistake 6 on attention-cost's lecture and random checks ("`T * T` is computed
as `(T - 1) * (T - 1)`, with `T` one too few"), its property told by the checklist; vit-checkpoint
observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count:attention_scores:T-minus-1',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'}


def attention_scores(num_tokens):
    npatch = num_tokens - 1
    return npatch * npatch


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError("dim must be divisible by num_heads")
    num_heads = heads
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv = (x @ W_qkv).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), 1)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x
