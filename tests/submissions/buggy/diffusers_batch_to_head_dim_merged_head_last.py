"""Blind round 26 (b26_11, issue 38): self_attention ported from huggingface/diffusers
(attention_processor.py: `head_to_batch_dim`, `batch_to_head_dim`, `get_attention_scores` with
baddbmm). The student's top-level helpers `head_to_batch_dim`, `batch_to_head_dim` and
`get_attention_scores` are nested in self_attention here: the builder replaces only the
solution's own definitions.

Mistakes:
1. batch_to_head_dim merges the heads as (T, d_h, heads), `transpose(1, 2, 0)`, instead of
   (T, heads, d_h): each head's output is interleaved with the others' (right with one head).

Grader: at blind time and now, named: the merge taking its last two axes the other way round,
einops' `(d h)` for `(h d)`, on no-causal-mask and multi-head-attention (the hint quotes the
reference's `x.swapaxes(-2, -3).reshape(...)`, not the student's transpose); vit-checkpoint
observes the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:merge:self_attention/merge_heads:merged-the-other-way',
          'multi-head-attention': 'op:merge:self_attention/merge_heads:merged-the-other-way'}


def self_attention(x, p, heads, causal=False):
    def head_to_batch_dim(tensor, head_size):
        seq_len, dim = tensor.shape
        tensor = tensor.reshape(seq_len, head_size, dim // head_size)
        return tensor.transpose(1, 0, 2)                       # (heads, T, d_h)

    def batch_to_head_dim(tensor, head_size):
        _, seq_len, dim = tensor.shape
        return tensor.transpose(1, 2, 0).reshape(seq_len, dim * head_size)

    def get_attention_scores(query, key, scale, attention_mask=None):
        if attention_mask is None:
            baddbmm_input, beta = np.zeros((query.shape[0], query.shape[1], key.shape[1])), 0
        else:
            baddbmm_input, beta = attention_mask, 1
        attention_scores = beta * baddbmm_input + scale * np.matmul(query, key.transpose(0, 2, 1))
        return softmax(attention_scores, axis=-1)

    T, inner_dim = x.shape
    if inner_dim % heads:
        raise ValueError(f"inner_dim {inner_dim} is not divisible by heads {heads}")
    dim_head = inner_dim // heads
    scale = dim_head ** -0.5
    query = head_to_batch_dim(x @ p["Wq"] + p["bq"], heads)
    key = head_to_batch_dim(x @ p["Wk"] + p["bk"], heads)
    value = head_to_batch_dim(x @ p["Wv"] + p["bv"], heads)
    attention_mask = np.triu(np.full((T, T), -np.inf), 1)[None] if causal else None
    attention_probs = get_attention_scores(query, key, scale, attention_mask)
    hidden_states = np.matmul(attention_probs, value)
    hidden_states = batch_to_head_dim(hidden_states, heads)
    return hidden_states @ p["Wo"] + p["bo"]          # to_out[0]
