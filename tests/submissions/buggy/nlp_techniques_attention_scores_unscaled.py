"""Blind round 64 (b64_10, issue 38): self_attention's core ported from
adityakanamadi281/NLP_Techniques `self_Attention_Mechanism/self_attention.py`
(`self_attention(query, key, value)`, run on every head). The student's top-level `_attention`
is nested in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
12. self_attention via _attention (line 146 of the file as delivered): `scores = query @ key^T`
    without the 1/sqrt(d_h) scale (the source does not scale). Wrong on any input.

Grader: at blind time (0cd43d22) and now, 95/110, named. Mistake 12 on all five failed checks
of multi-head-attention and no-causal-mask ("Your values are those of attention whose scores
come out unscaled on these calls: divide q k^T by sqrt(d_h), d_h = d // heads, before the
softmax ..."); vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_no_scale',
          'no-causal-mask': 'attention_no_scale'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    Project, split the heads, run _attention on every head, put the heads side by side, @ Wo + bo.
    """
    def _attention(query, key, value, mask=None):
        scores = np.matmul(query, np.swapaxes(key, -2, -1))
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        attention_weights = softmax(scores, axis=-1)
        return np.matmul(attention_weights, value)

    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    query = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    key = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    value = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
    out = _attention(query, key, value, mask)          # (heads, T, d_h)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
