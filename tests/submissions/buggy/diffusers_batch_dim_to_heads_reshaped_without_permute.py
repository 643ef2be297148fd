"""Blind round 40 (b40_13, issue 38): self_attention built on the head helpers of the diffusers
attention code vendored in A1ex-Chen/DL_project_log (ConsistencyTTA/diffusers/models/
attention_reshape_heads_to_batch_dim.py: reshape_heads_to_batch_dim, and its inverse
reshape_batch_dim_to_heads), nested in self_attention.

Mistakes:
1. self_attention: reshape_batch_dim_to_heads reshapes (heads, T, d_h) straight to (1, T, d)
   with no permute back, so the heads' outputs are interleaved across tokens. Shows only with
   several heads.

Grader: at blind time (b589706) and now, named: at blind time "`x.swapaxes(-2, -3)` is used without
its transpose: `x` as it is" (merge_heads; now: "the heads' outputs reach the merge in another axis
order ... Your code does move axes before it reshapes (`tensor.transpose(0, 2, 1, 3)` in
`reshape_heads_to_batch_dim`) ...") on no-causal-mask (heads=2) and multi-head-attention, visible
and hidden; the one-head checks pass; why-positions' "attention only reorders" check runs this
self_attention and gets its equivariance checklist (ALIASES); vit-checkpoint observes the broken
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    num_heads = heads

    def reshape_heads_to_batch_dim(tensor):
        batch_size, seq_len, dim = tensor.shape
        head_size = num_heads
        tensor = tensor.reshape(batch_size, seq_len, head_size, dim // head_size)
        tensor = tensor.transpose(0, 2, 1, 3).reshape(batch_size * head_size, seq_len, dim // head_size)
        return tensor

    def reshape_batch_dim_to_heads(tensor):
        batch_size, seq_len, dim = tensor.shape
        head_size = num_heads
        tensor = tensor.reshape(batch_size // head_size, seq_len, dim * head_size)
        return tensor

    hidden_states = x[None]                                   # (batch, seq, dim)
    query = reshape_heads_to_batch_dim(hidden_states @ p["Wq"] + p["bq"])
    key = reshape_heads_to_batch_dim(hidden_states @ p["Wk"] + p["bk"])
    value = reshape_heads_to_batch_dim(hidden_states @ p["Wv"] + p["bv"])
    scale = (dim // heads) ** -0.5
    attention_scores = query @ key.transpose(0, 2, 1) * scale
    if causal:
        attention_scores = np.where(np.tril(np.ones((T, T), dtype=bool)), attention_scores, -np.inf)
    attention_probs = softmax(attention_scores, axis=-1)
    hidden_states = attention_probs @ value
    hidden_states = reshape_batch_dim_to_heads(hidden_states)[0]
    return hidden_states @ p["Wo"] + p["bo"]
