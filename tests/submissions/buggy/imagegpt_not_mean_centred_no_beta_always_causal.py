"""Blind round 27 (b27_06, issue 38): layer_norm and self_attention ported from Hugging Face
transformers' ImageGPT (modeling_imagegpt.py: ImageGPTLayerNorm, `x / sqrt(mean(x ** 2) + eps) *
weight`, "input is not mean centered", no bias; ImageGPTAttention's `_split_heads`, `_merge_heads`
and the causal mask applied by every "normal" attention layer). The student's top-level helpers
`_split_heads` and `_merge_heads` are nested in self_attention here: the builder replaces only the
solution's own definitions.

Mistakes:
1. layer_norm is not mean-centred (an RMS norm) and drops beta.
2. self_attention always applies the causal mask (np.finfo min above the diagonal), whatever
   `causal` says.

Grader: at blind time and now, both named: the shift beta left out with the statistics taken about
zero, as RMSNorm takes them, on layer-norm (its shift property gives its checklist); causal
ignored, the mask always applied, on no-causal-mask and multi-head-attention (the default-mask
check and why-positions give their checklists); vit-checkpoint observes the broken functions.
Every mistake named, so in buggy/.
Since blind round 39 no-causal-mask's check of causal=False lists attention_causal too: the
mask is told in the same words there as on multi-head-attention.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:term:layer_norm:drop-beta+op:norm:layer_norm:rms-norm',
          'no-causal-mask': 'attention_causal',
          'multi-head-attention': 'attention_causal',
          'why-positions': 'attention_not_equivariant'}
ALIASES = ('mean_not_subtracted', 'gpt_causal_mask')  # the properties' verdicts on the same mistakes


def layer_norm(x, gamma, beta, eps=1e-6):
    # input is not mean centered
    x = np.asarray(x, dtype=float)
    return x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + eps) * gamma


def self_attention(x, p, heads, causal=False):
    def _split_heads(tensor, num_heads, attn_head_size):
        """Splits hidden_size dim into attn_head_size and num_heads: (T, d) -> (heads, T, d_h)."""
        new_shape = tensor.shape[:-1] + (num_heads, attn_head_size)
        return tensor.reshape(new_shape).transpose(1, 0, 2)

    def _merge_heads(tensor, num_heads, attn_head_size):
        """Merges attn_head_size dim and num_attn_heads dim into hidden_size."""
        tensor = tensor.transpose(1, 0, 2)
        return tensor.reshape(tensor.shape[0], num_heads * attn_head_size)

    T, embed_dim = x.shape
    head_dim = embed_dim // heads
    if head_dim * heads != embed_dim:
        raise ValueError(f"`embed_dim` must be divisible by num_heads (got `embed_dim`: {embed_dim}"
                         f" and `num_heads`: {heads}).")
    query = _split_heads(x @ p["Wq"] + p["bq"], heads, head_dim)
    key = _split_heads(x @ p["Wk"] + p["bk"], heads, head_dim)
    value = _split_heads(x @ p["Wv"] + p["bv"], heads, head_dim)
    attn_weights = query @ key.transpose(0, 2, 1)
    attn_weights = attn_weights / (float(value.shape[-1]) ** 0.5)
    # only "normal" attention layer implements causal mask
    causal_mask = np.tril(np.ones((T, T), dtype=bool))
    mask_value = np.finfo(attn_weights.dtype).min
    attn_weights = np.where(causal_mask, attn_weights, mask_value)
    attn_weights = softmax(attn_weights, axis=-1)
    attn_output = attn_weights @ value
    attn_output = _merge_heads(attn_output, heads, head_dim)
    return attn_output @ p["Wo"] + p["bo"]   # c_proj
