"""Blind round 29 (b29_07, issue 38): self_attention ported from Hugging Face transformers
modeling_git.py GitVisionAttention (the CLIP attention: `self.q_proj(hidden_states) *
self.scale`, _shape, proj_shape = (bsz * num_heads, -1, head_dim), bmm, causal_attention_mask
added).

Mistakes:
1. `self.q_proj(hidden_states) * self.scale` is written `hidden_states @ Wq * scale + bq`: the
   query bias is not scaled by 1/sqrt(d_h) (an operator-precedence slip). Wrong whenever
   bq != 0 (any number of heads, causal or not).

Grader: at blind time and now, not named: under causal=True only "returns the expected values
only in 1 of 4 rows (row 0); the others differ" (some_rows_wrong: true, but no cause: row 0
attends to itself only, so q cannot matter there); multi-head-attention's three failed checks
get no hint; vit-checkpoint observes the broken self_attention.
Since session 16 named on every failed self_attention check (op:bias_unscaled: the attention's
scale applied to `x @ Wq` before the bias is added), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:bias_unscaled:self_attention:q-bias-unscaled',
          'multi-head-attention': 'op:bias_unscaled:self_attention:q-bias-unscaled'}


def self_attention(hidden_states, p, heads, causal=False):
    """GitVisionAttention.forward for one sequence (tgt_len, embed_dim)."""
    tgt_len, embed_dim = hidden_states.shape
    num_heads = heads
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"embed_dim must be divisible by num_heads (got `embed_dim`: {embed_dim}"
                         f" and `num_heads`: {num_heads}).")
    scale = head_dim ** -0.5

    def _shape(tensor, seq_len):
        return tensor.reshape(seq_len, num_heads, head_dim).transpose(1, 0, 2)

    query_states = hidden_states @ p["Wq"] * scale + p["bq"]
    key_states = _shape(hidden_states @ p["Wk"] + p["bk"], -1)
    value_states = _shape(hidden_states @ p["Wv"] + p["bv"], -1)

    proj_shape = (num_heads, -1, head_dim)
    query_states = _shape(query_states, tgt_len).reshape(*proj_shape)
    attn_weights = query_states @ key_states.transpose(0, 2, 1)

    if causal:
        causal_attention_mask = np.triu(np.full((tgt_len, tgt_len), np.finfo(np.float64).min), k=1)
        attn_weights = attn_weights + causal_attention_mask[None]
    attn_weights = softmax(attn_weights, axis=-1)
    attn_output = attn_weights @ value_states
    attn_output = attn_output.reshape(num_heads, tgt_len, head_dim).transpose(1, 0, 2)
    attn_output = attn_output.reshape(tgt_len, embed_dim)
    return attn_output @ p["Wo"] + p["bo"]
