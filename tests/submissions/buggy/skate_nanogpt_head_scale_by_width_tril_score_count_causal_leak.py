"""Blind round 40 (b40_09, issue 38): self_attention, attention_scores and the causal-mask answer
after the nanoGPT-style equinox model of hilalmufti/skate (model.py: class Head with
key/query/value Linear(n_embd, head_size), B, T, C = x.shape, one Head per head, outputs
concatenated). The student's Head is nested in self_attention.

Mistakes:
1. self_attention: `wei = q @ k.T * C ** -0.5` with C = n_embd, the model width: scores scaled by
   1/sqrt(d), not 1/sqrt(d_h). Shows only with several heads.
2. attention_scores: `np.tril(np.ones((T, T))).sum()`, T(T+1)/2, a causal mask's triangle, where
   T ** 2 belongs.
3. ANSWERS["causal_mask"] = "leak".

Grader: at blind time (b589706) and now, every mistake named: "the scores are divided by
sqrt(d), the model width, instead of sqrt(d_h)" (no-causal-mask, heads=2, and its hidden
check) and attention_scale_d (multi-head-attention, visible and hidden; the one-head checks
pass); "`T * T` is counted as `T * (T + 1) // 2`, a causal mask's triangle" (attention-cost,
visible and hidden); causal_mask:leak (no-causal-mask's answer check). vit-checkpoint observes
the broken self_attention. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}
ALIASES = ('causal_mask:leak',)  # the file's third mistake, named on no-causal-mask's answer check


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2."""
    T = num_tokens
    tril = np.tril(np.ones((T, T), dtype=int))
    return int(tril.sum())


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, C = x.shape
    if C % heads:
        raise ValueError(f"n_embd {C} is not divisible by {heads} heads")
    head_size = C // heads
    key = x @ p["Wk"] + p["bk"]
    query = x @ p["Wq"] + p["bq"]
    value = x @ p["Wv"] + p["bv"]

    def Head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        k = key[:, cols]
        q = query[:, cols]
        wei = q @ k.T * C ** -0.5
        if causal:
            tril = np.tril(np.ones((T, T)))
            wei = np.where(tril == 0, -np.inf, wei)
        wei = softmax(wei, axis=-1)
        v = value[:, cols]
        return wei @ v

    out = np.concatenate([Head(h) for h in range(heads)], axis=-1)
    return out @ p["Wo"] + p["bo"]


ANSWERS["causal_mask"] = "leak"
