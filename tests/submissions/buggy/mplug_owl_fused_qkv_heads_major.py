"""Blind round 60 (b60_12, issue 38): self_attention ported from X-PLUG/mPLUG-Owl
`mPLUG-Owl/mplug_owl/modeling_mplug_owl.py` (MplugOwlVisionAttention's fused `query_key_value`,
`reshape(bsz, seq_len, self.num_heads, 3, embed_dim // self.num_heads)`).

Mistakes:
19. self_attention (line 98 of the file as delivered) applies the source's heads-major reshape,
    `(seq_len, heads, 3, d_h)`, to a `[Wq | Wk | Wv]` concatenation, so for heads > 1 each head's
    q, k and v come from the wrong column blocks. Wrong only with heads > 1 (one head is exact).

Grader: at blind time (528b2ec3) and now, 96/110, named on multi-head-attention's several-heads
and random checks and no-causal-mask's causal checks ("In `self_attention`, q, k, v come from
one fused product, `x @ [p['Wq'] | p['Wk'] | p['Wv']]`, split per token as (heads, 3, d_h) where
its columns are (3, heads, d_h) ... Reshape to (T, 3, heads, d_h) first."); vit-checkpoint
observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major'}


def self_attention(x, p, heads, causal=False):
    seq_len, embed_dim = x.shape
    num_heads = heads
    if embed_dim % num_heads:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // num_heads
    scale = head_dim ** -0.5

    query_key_value = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    mixed_qkv = x @ query_key_value + qkv_bias
    mixed_qkv = mixed_qkv.reshape(seq_len, num_heads, 3, embed_dim // num_heads).transpose(2, 1, 0, 3)  # [3, np, sq, hn]
    query_states, key_states, value_states = mixed_qkv[0], mixed_qkv[1], mixed_qkv[2]

    # Take the dot product between "query" and "key" to get the raw attention scores.
    attention_scores = query_states @ key_states.transpose(0, 2, 1)
    attention_scores = attention_scores * scale
    if causal:
        attention_scores = np.where(np.tril(np.ones((seq_len, seq_len), dtype=bool)), attention_scores, -np.inf)
    attention_probs = softmax(attention_scores, axis=-1)

    context_layer = (attention_probs @ value_states).transpose(1, 0, 2)
    context_layer = context_layer.reshape(seq_len, embed_dim)
    output = context_layer @ p["Wo"] + p["bo"]
    return output
