"""Blind round 45 (b45_08, issue 38): self_attention ported from a Flax linen MultiHeadAttention /
scaled_dot_product module (fused `qkv_proj`, `reshape(batch, seq, num_heads, -1)`,
`jnp.array_split(qkv, 3, axis=-1)`, `jnp.where(mask == 0, -9e15, ...)`).

Mistakes:
1. self_attention builds the fused `W_qkv = [Wq | Wk | Wv]`, reshapes the product to
   (T, heads, 3 * d_h) and splits the last axis into q, k and v: with several heads, head h takes
   columns h*3d_h:(h+1)*3d_h of the fused matrix, mixing q, k and v columns across heads.
2. The causal mask is built as `triu(ones, k=1)` (1 marks the later tokens, PyTorch's convention),
   but Flax's rule `where(mask == 0, -9e15, ...)` treats 1 as "keep": the mask hides the past and the
   token itself and keeps the future (the last row is all hidden and becomes uniform).
The student's top-level scaled_dot_product and BSHD are nested in self_attention here.

Grader: at blind time (fe6e9573) the split was named (op:fused:self_attention:qkv-fused-heads-major)
on multi-head-attention; the mask was only observed: the visible
causal check (heads=1) had only an `[observation]` pointing to multi-head-attention, the hidden
one a `[checklist]`. Now both causal checks name the pair: "2 mistakes at once: (1) ... one fused
product ... (2) ... the mask hides the scores it should keep and keeps the ones it should hide,
`np.where(mask, -1e9, scores)` in effect ..." (op:mask_swapped, masks.py: a mask of the hidden
keys given to a rule that reads 1 as "keep", the hidden ones filled with a finite number);
multi-head-attention names the split alone. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major'
                            '+op:mask_swapped:self_attention/attention:'
                            'kept-and-hidden-swapped-finite-fill'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    BSHD = (1, 0, 2)   # (seq, head, dims) <-> (head, seq, dims)

    def scaled_dot_product(q, k, v, mask=None):
        d_k = q.shape[-1]
        attn_logits = np.matmul(q, np.swapaxes(k, -2, -1))
        attn_logits = attn_logits / math.sqrt(d_k)
        if mask is not None:
            attn_logits = np.where(mask == 0, -9e15, attn_logits)
        attention = softmax(attn_logits, axis=-1)
        values = np.matmul(attention, v)
        return values, attention

    seq_len, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError(f"embed_dim {embed_dim} is not divisible by {heads} heads")
    mask = None
    if causal:
        mask = np.triu(np.ones((seq_len, seq_len)), k=1)   # the later tokens
    # qkv_proj: one Dense of width 3 * d_model
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ W_qkv + b_qkv
    qkv = qkv.reshape(seq_len, heads, -1)
    qkv = qkv.transpose(BSHD)
    q, k, v = np.array_split(qkv, 3, axis=-1)
    values, attention = scaled_dot_product(q, k, v, mask=mask)
    values = values.transpose(BSHD)
    values = values.reshape(seq_len, embed_dim)
    return values @ p["Wo"] + p["bo"]
