"""Blind round 22 (b22_05, issue 38): self_attention and encoder_block ported from
deepmind-research's perceiver (perceiver.py: `attend` with einsum 'thd,Thd->htT' and a -1e30
mask fill, SelfAttention's `x = inputs; x += attention`). The student's top-level helpers
`attend` (self_attention) and `mlp` (encoder_block) are nested in the functions that use them
here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention's `attend` returns the einsum 'htT,Thd->htd' reshaped to (t, h * d) with no
   head/token swap: the heads' rows are merged scrambled (several heads only).
2. encoder_block's `x = inputs; x += attention` adds into the caller's array in place (the values
   returned are right).

Grader: at blind time and now (the same commit), the merge named (`x.swapaxes(-2, -3)` used
without its transpose) on no-causal-mask and multi-head-attention; why-positions gets its
equivariance checklist; the in-place add was only observed until session 13 ("Change no array `encoder_block` is given
in place: compute into a new one (`x = x - m`, not `x -= m`)"), which states the mechanism but
with no misconception name; vit-checkpoint observes the broken functions.
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'encoder-block': 'changes_input_in_place'}
ALIASES = ('attention_not_equivariant',)  # why-positions' property: rows merged across tokens


def self_attention(x, p, heads, causal=False):
    def attend(q, k, v, attention_mask=None):
        q_indices, num_heads, q_head_dim = q.shape
        _, _, v_head_dim = v.shape
        attention = np.einsum("thd,Thd->htT", q, k)
        scale = 1.0 / math.sqrt(q_head_dim)
        attention = attention * scale
        if attention_mask is not None:
            large_k = 1e30
            attention = np.where(attention_mask[None, :, :], attention, -large_k)
        normalized = softmax(attention, axis=-1)
        summed = np.einsum("htT,Thd->htd", normalized, v)
        return summed.reshape(q_indices, num_heads * v_head_dim)

    T, d = x.shape
    if d % heads:
        raise ValueError("num_heads must divide the channel count")
    qk_channels_per_head = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, qk_channels_per_head)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, qk_channels_per_head)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, qk_channels_per_head)
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
    result = attend(q, k, v, attention_mask=mask)
    return result @ p["Wo"] + p["bo"]


def encoder_block(inputs, p, heads):
    def mlp(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = inputs
    qkv_inputs = layer_norm(inputs, p["ln1_g"], p["ln1_b"])
    attention = self_attention(qkv_inputs, p, heads)
    x += attention
    x += mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
