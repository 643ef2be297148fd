"""Blind round 49 (b49_11, issue 38): self_attention after niujiazhen/happy-llm,
docs/chapter2/code/maskSelfAttention.py (`torch.triu(torch.full((4, 4), float("-inf")),
diagonal=1)`), ported as `np.triu(np.full((T, T), float("-inf")))`, with the `assert d % heads ==
0` of the MHA sources.

Mistakes:
1. The causal mask also hides the diagonal: `np.triu` without `k=1`, so with causal=True row 0 is
   all -inf (NaN) and every other row sees only strictly earlier tokens. causal=False matches.
2. A bad head count raises AssertionError, not ValueError (d=6, heads=4).

Grader: at blind time (7e618553) and now, both named: mistake 1 on no-causal-mask ("Your causal mask
hides the diagonal too, so token 0 sees nothing and its row of the softmax is nan. Token i sees
tokens 0..i, itself included: keep np.tril(ones), k=0."), mistake 2 on multi-head-attention
("Your code refused the input with `assert` (AssertionError), where ValueError is asked for: an
assert is no input check (python -O skips it); write `raise ValueError(...)`."). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_diagonal',
          'multi-head-attention': 'refused_with_assert'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    assert d % heads == 0, "d must be divisible by heads"
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)

    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        mask = np.triu(np.full((T, T), float("-inf")))
        scores = scores + mask
    attn = softmax(scores, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(T, d)
    return out @ p["Wo"] + p["bo"]
