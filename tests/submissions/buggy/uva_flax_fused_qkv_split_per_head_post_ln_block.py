"""Blind round 26 (b26_02, issue 38): self_attention and encoder_block ported from the UvA Deep
Learning tutorials, Tutorial 6 "Transformers and Multi-Head Attention" (JAX/Flax:
`scaled_dot_product`, `MultiheadAttention.__call__` with one fused qkv_proj,
`qkv.reshape(batch, seq, num_heads, -1)` and `jnp.array_split(qkv, 3, axis=-1)`, the post-LN
`EncoderBlock`). The student's top-level helper `scaled_dot_product` is nested in self_attention
here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention concatenates [Wq | Wk | Wv] and splits the fused product the tutorial's way,
   (T, heads, 3 * d_h) then array_split in three: the tutorial's kernel is laid out per head, the
   concatenation is not, so with several heads q, k and v mix columns of one another (right with
   one head only).
2. encoder_block is post-LN: x = LN1(x + attn(x)), x = LN2(x + mlp(x)), where ViT's block is
   pre-LN.

Grader: at blind time and now, both named: the fused product split per token as (heads, 3, d_h)
where its columns are (3, heads, d_h) on no-causal-mask and multi-head-attention; a post-LN block
on encoder-block; vit-checkpoint observes the broken functions. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'encoder-block': 'encoder_post_ln'}


def self_attention(x, p, heads, causal=False):
    def scaled_dot_product(q, k, v, mask=None):
        d_k = q.shape[-1]
        attn_logits = np.matmul(q, np.swapaxes(k, -2, -1))
        attn_logits = attn_logits / math.sqrt(d_k)
        if mask is not None:
            attn_logits = np.where(mask == 0, -9e15, attn_logits)
        attention = softmax(attn_logits, axis=-1)
        values = np.matmul(attention, v)
        return values, attention

    seq_length, embed_dim = x.shape
    if embed_dim % heads:
        raise ValueError(f"embed_dim {embed_dim} must be divisible by num_heads {heads}")
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # qkv_proj kernel
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ W_qkv + b_qkv
    # Separate Q, K, V from linear output
    qkv = qkv.reshape(seq_length, heads, -1)
    qkv = qkv.transpose(1, 0, 2)  # [Head, SeqLen, Dims]
    q, k, v = np.array_split(qkv, 3, axis=-1)
    mask = np.tril(np.ones((seq_length, seq_length))) if causal else None
    values, attention = scaled_dot_product(q, k, v, mask=mask)
    values = values.transpose(1, 0, 2)  # [SeqLen, Head, Dims]
    values = values.reshape(seq_length, embed_dim)
    return values @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    # Attention part
    attn_out = self_attention(x, p, heads)
    x = x + attn_out
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    # MLP part
    linear_out = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    x = x + linear_out
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x
