"""Blind round 23 (b23_01, issue 38): layer_norm and self_attention ported from Meta's Llama
reference (meta-llama/llama, llama/model.py: RMSNorm._norm `x * rsqrt(x.pow(2).mean(-1) + eps)`,
Attention.forward with xq / keys / values, scores / sqrt(head_dim), an additive -inf mask from
triu(diagonal=1)).

Mistakes:
1. layer_norm is Llama's RMSNorm: no mean subtracted, and the divisor is the root mean square
   `sqrt(mean(x ** 2) + eps)`, not the standard deviation.
2. self_attention ports `output.transpose(1, 2).contiguous().view(bsz, seqlen, -1)` as a plain
   `output.reshape(seqlen, -1)` of the (heads, T, d_h) output, with the head axis not moved back:
   wrong whenever heads > 1.

Grader: at blind time and now, both named: the statistics "taken about zero, as RMSNorm (T5,
LLaMA) takes them" on layer-norm (its shift-invariance checklist too, ALIASES), and the merge
(`x.swapaxes(-2, -3)` used without its transpose) on no-causal-mask and multi-head-attention;
why-positions gets its equivariance checklist (ALIASES); vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:rms-norm',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',  # why-positions' checklist for the merge
           'mean_not_subtracted')  # the shift-invariance property's verdict on the norm


def layer_norm(x, gamma, beta, eps=1e-6):
    # RMSNorm._norm: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
    x = np.asarray(x, dtype=float)
    normed = x * (1.0 / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps))
    return normed * gamma + beta


def self_attention(x, p, heads, causal=False):
    seqlen, dim = x.shape
    if dim % heads != 0:
        raise ValueError("dim must be divisible by n_heads")
    head_dim = dim // heads
    xq = x @ p["Wq"] + p["bq"]
    xk = x @ p["Wk"] + p["bk"]
    xv = x @ p["Wv"] + p["bv"]
    xq = xq.reshape(seqlen, heads, head_dim).transpose(1, 0, 2)
    keys = xk.reshape(seqlen, heads, head_dim).transpose(1, 0, 2)
    values = xv.reshape(seqlen, heads, head_dim).transpose(1, 0, 2)
    scores = xq @ keys.transpose(0, 2, 1) / math.sqrt(head_dim)
    if causal:
        mask = np.triu(np.full((seqlen, seqlen), -np.inf), k=1)
        scores = scores + mask
    scores = softmax(scores, axis=-1)
    output = scores @ values  # (n_heads, seqlen, head_dim)
    output = output.reshape(seqlen, -1)
    return output @ p["Wo"] + p["bo"]
