"""Blind round 29 (b29_04, issue 38): self_attention ported from jeonsworld/ViT-pytorch
(models/modeling.py, Attention.transpose_for_scores / Attention.forward). The student's
top-level helper `_transpose_for_scores` is nested in self_attention here: the builder replaces
only the solution's own definitions.

Mistakes:
1. After `attention_probs @ value_layer` (heads, T, d_h) the port drops the repo's
   `context_layer.permute(0, 2, 1, 3)` (taken for batch bookkeeping) and reshapes straight to
   (T, all_head_size). Right for one head, wrong for two or more.

Grader: at blind time and now, named: at blind time "(in its step `merge_heads(...)`),
`x.swapaxes(-2, -3)` is used without its transpose" (now: "In `self_attention`, the heads' outputs
are merged by a reshape without moving the head axis back first ...") on no-causal-mask and
multi-head-attention; why-positions runs the student's self_attention, which is not
permutation-equivariant (attention_not_equivariant, the property's checklist); vit-checkpoint
observes the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant'}


def self_attention(x, p, heads, causal=False):
    """modeling.py Attention.forward for one sequence (T, hidden_size)."""
    def _transpose_for_scores(x, num_attention_heads, attention_head_size):
        new_x_shape = x.shape[:-1] + (num_attention_heads, attention_head_size)
        x = x.reshape(new_x_shape)
        return x.transpose(1, 0, 2)            # permute(0, 2, 1, 3) without the batch

    seq_len, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError(f"hidden size {hidden_size} is not a multiple of {heads} heads")
    num_attention_heads = heads
    attention_head_size = int(hidden_size / num_attention_heads)
    all_head_size = num_attention_heads * attention_head_size

    mixed_query_layer = x @ p["Wq"] + p["bq"]
    mixed_key_layer = x @ p["Wk"] + p["bk"]
    mixed_value_layer = x @ p["Wv"] + p["bv"]

    query_layer = _transpose_for_scores(mixed_query_layer, num_attention_heads, attention_head_size)
    key_layer = _transpose_for_scores(mixed_key_layer, num_attention_heads, attention_head_size)
    value_layer = _transpose_for_scores(mixed_value_layer, num_attention_heads, attention_head_size)

    attention_scores = query_layer @ key_layer.transpose(0, 2, 1)
    attention_scores = attention_scores / math.sqrt(attention_head_size)
    if causal:
        attention_scores = attention_scores + np.triu(np.full((seq_len, seq_len), -1e4), k=1)
    attention_probs = softmax(attention_scores, axis=-1)

    context_layer = attention_probs @ value_layer                 # (heads, T, d_h)
    context_layer = context_layer.reshape(seq_len, all_head_size)
    attention_output = context_layer @ p["Wo"] + p["bo"]
    return attention_output
