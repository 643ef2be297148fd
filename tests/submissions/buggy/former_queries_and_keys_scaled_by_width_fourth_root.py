"""Blind round 33 (b33_01, issue 38): self_attention ported from Peter Bloem's "former"
(pbloem/former, former/modules.py SelfAttention.forward and former/util/util.py mask_; the blog
post "Transformers from scratch"). The student's helper `mask_` is nested in self_attention.

Mistakes:
1. The queries and the keys are each divided by e**(1/4) with e = the full width d (former's
   convention), so the scores are scaled by 1/sqrt(d), not 1/sqrt(d_h). Right with one head;
   wrong with two or more.

Grader: at blind time (c4f83ef) and now, named: the scale=sqrt(d) rewrite ("the scores are
divided by sqrt(d), the model width, instead of sqrt(d_h)") on no-causal-mask, "You scaled by
1/sqrt(d), the model width" (attention_scale_d) on multi-head-attention; vit-checkpoint observes
the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), after former.modules.SelfAttention (one sequence, b = 1)."""

    def mask_(matrices, maskval=0.0, mask_diagonal=True):
        # former.util.mask_: masks out all values in the given batch of matrices where i <= j holds
        h, w = matrices.shape[-2], matrices.shape[-1]
        indices = np.triu_indices(h, k=0 if mask_diagonal else 1, m=w)
        matrices[..., indices[0], indices[1]] = maskval

    x = np.asarray(x, dtype=float)
    t, e = x.shape
    h = heads
    if e % h != 0:
        raise ValueError(f'Embedding dimension ({e}) should be divisible by nr. of heads ({h})')

    s = e // h
    # - We will break the embedding into `heads` chunks and feed each to a different attention head

    keys    = x @ p["Wk"] + p["bk"]
    queries = x @ p["Wq"] + p["bq"]
    values  = x @ p["Wv"] + p["bv"]

    keys    = keys.reshape(t, h, s)
    queries = queries.reshape(t, h, s)
    values  = values.reshape(t, h, s)

    # - fold heads into the batch dimension
    keys    = keys.transpose(1, 0, 2)
    queries = queries.transpose(1, 0, 2)
    values  = values.transpose(1, 0, 2)

    queries = queries / (e ** (1/4))
    keys    = keys / (e ** (1/4))
    # - Instead of dividing the dot products by sqrt(e), we scale the keys and values.
    #   This should be more memory efficient

    # - get dot product of queries and keys, and scale
    dot = queries @ keys.transpose(0, 2, 1)

    assert dot.shape == (h, t, t)

    if causal:  # mask out the upper half of the dot matrix, excluding the diagonal
        mask_(dot, maskval=float('-inf'), mask_diagonal=False)

    dot = softmax(dot, axis=2)
    # - dot now has row-wise self-attention probabilities

    # apply the self attention to the values
    out = (dot @ values).reshape(h, t, s)

    # swap h, t back, unify heads
    out = out.transpose(1, 0, 2).reshape(t, s * h)

    return out @ p["Wo"] + p["bo"]
