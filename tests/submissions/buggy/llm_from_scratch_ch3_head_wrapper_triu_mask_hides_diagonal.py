"""Blind round 70 (b70_06, issue 38): self_attention (a MultiHeadAttentionWrapper over a
single-head `causal_self_attention`) ported from ardbytes/llm_from_scratch
`ch3/causal_multi_attention.py`.

Mistakes:
1. causal_self_attention (line 96 of the file as delivered), called per head by self_attention:
   `np.triu(np.ones((n, n)))` without `k=1` (the source's `diagonal=1`), so the diagonal is
   masked too: row 0 is all -inf, hence nan, and every other token misses itself. Only with
   causal=True; the default path is right.

Grader: at blind time (3f040026) and now, 107/110, named on no-causal-mask ("Your causal mask
hides the diagonal too ... np.triu(..., k=1)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_diagonal'}


def self_attention(x, p, heads, causal=False):
    def causal_self_attention(x, W_query, b_query, W_key, b_key, W_value, b_value, causal):
        """CausalSelfAttention.forward (one head; masked_fill with -inf, then the scale)."""
        n_tokens = x.shape[0]
        keys = x @ W_key + b_key
        queries = x @ W_query + b_query
        values = x @ W_value + b_value

        attn_scores = queries @ keys.T
        if causal:
            mask = np.triu(np.ones((n_tokens, n_tokens)))
            attn_scores = np.where(mask.astype(bool), -np.inf, attn_scores)
        attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)

        context_vec = attn_weights @ values
        return context_vec

    d = x.shape[1]
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    d_out = d // heads
    context = []
    for h in range(heads):
        c = slice(h * d_out, (h + 1) * d_out)
        context.append(causal_self_attention(x, p["Wq"][:, c], p["bq"][c], p["Wk"][:, c], p["bk"][c],
                                             p["Wv"][:, c], p["bv"][c], causal))
    context_vec = np.concatenate(context, axis=-1)
    return context_vec @ p["Wo"] + p["bo"]
