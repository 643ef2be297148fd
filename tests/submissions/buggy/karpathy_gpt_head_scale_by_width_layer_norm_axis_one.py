"""Blind round 27 (b27_02, issue 38): self_attention ported from Karpathy's "Let's build GPT"
(karpathy/ng-video-lecture gpt.py: class Head with `wei = q @ k.transpose(-2, -1) * C**-0.5`,
MultiHeadAttention as a list of Heads concatenated, then the projection) and layer_norm from the
lecture's LayerNorm1d (`x.mean(1, keepdim=True)`). The student's top-level helper `_head` is nested
in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention scales each head by C ** -0.5 with C = d, the token width, not the head size:
   right with one head or one token.
2. layer_norm reduces over axis 1 (LayerNorm1d's (B, C) input), not the last axis: right on
   (T, d) inputs, wrong on a leading batch axis, an AxisError on a 1-D token.

Grader: at blind time and now, both named: the scores divided by sqrt(d), the model width, on
no-causal-mask and multi-head-attention; the mean and variance over axis 1 instead of axis -1
(one slip at 2 places) on layer-norm; vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm1d from the lecture (torch.var is unbiased there, numpy's var is not: kept ddof=0)."""
    xmean = x.mean(1, keepdims=True)  # batch mean
    xvar = x.var(1, keepdims=True)    # batch variance
    xhat = (x - xmean) / np.sqrt(xvar + eps)  # normalize to unit variance
    return gamma * xhat + beta


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention: multiple heads of self-attention in parallel, then the projection."""
    def _head(x, p, lo, hi, causal):
        """One head of self-attention (class Head in gpt.py), columns lo:hi of the projections."""
        T, C = x.shape
        k = x @ p["Wk"][:, lo:hi] + p["bk"][lo:hi]   # (T, hs)
        q = x @ p["Wq"][:, lo:hi] + p["bq"][lo:hi]   # (T, hs)
        # compute attention scores ("affinities")
        wei = q @ k.T * C ** -0.5                    # (T, hs) @ (hs, T) -> (T, T)
        if causal:
            tril = np.tril(np.ones((T, T)))
            wei = np.where(tril == 0, -np.inf, wei)  # masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = softmax(wei, axis=-1)
        v = x @ p["Wv"][:, lo:hi] + p["bv"][lo:hi]
        return wei @ v

    T, C = x.shape
    if C % heads:
        raise ValueError(f"n_embd {C} is not a multiple of n_head {heads}")
    head_size = C // heads
    out = np.concatenate([_head(x, p, h * head_size, (h + 1) * head_size, causal)
                          for h in range(heads)], axis=-1)
    return out @ p["Wo"] + p["bo"]
