"""Blind round 14 (b14_08, issue 38): HF BertSelfAttention / ViTSelfAttention, where the mask is
applied `if attention_mask is not None`.

Mistake: self_attention defaults to causal=None and applies the causal mask whenever `causal is
not None`, so an explicit causal=False still hides later tokens (the default, None, does not).

Grader: missed at blind time (109/109: no check passed causal=False explicitly); since blind
round 14's fixes no-causal-mask's visible check passes it, and the mask is named (the condition
never looked at). Since blind round 39 that check lists attention_causal, the mask applied
although causal is False (multi-head-attention's words): named so now.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal'}


def self_attention(x, p, heads, causal=None):
    """Multi-head attention after HF ViTSelfAttention / BertSelfAttention:
    if attention_mask is not None: attention_scores = attention_scores + attention_mask"""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def transpose_for_scores(y):
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q = transpose_for_scores(x @ p["Wq"] + p["bq"])
    k = transpose_for_scores(x @ p["Wk"] + p["bk"])
    v = transpose_for_scores(x @ p["Wv"] + p["bv"])
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal is not None:
        scores = scores + np.triu(np.full((T, T), -np.inf), k=1)
    probs = softmax(scores, axis=-1)
    context = (probs @ v).transpose(1, 0, 2).reshape(T, d)
    return context @ p["Wo"] + p["bo"]
