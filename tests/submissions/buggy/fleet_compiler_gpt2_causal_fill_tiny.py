"""Blind round 44 (b44_09, issue 38): self_attention ported from the fleet_compiler numpy GPT-2
test (attention(q, k, v, mask) and mha(x, n_head): `casual_mask = (1 - np.tri(n_seq)) *
-0.0000000001`, np.split heads, np.hstack).

Mistakes:
1. The causal mask adds -1e-10 (the source's fill) above the diagonal instead of -inf or -1e9, so
   the future tokens are still attended: causal=True acts as no mask (non-causal is right).

Grader: at blind time (0fc72e8), partly named: the missing-mask mistake's sentence "With
causal=True, token i may only see tokens 0..i: set the scores above the diagonal to -inf before
the softmax." (attention_causal_ignored). Its fix is right, but it read as if no mask were there.
A tiny fill and no mask give the same outputs within tolerance, so no rewrite can tell them
apart: now the same mistake's sentence says both ("the scores above the diagonal are not hidden:
either no mask is applied, or its fill is too small to matter after the softmax (as -1e-10 or
-1e-9 is). Fill them with -inf, or a large negative such as -1e9"). Named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_ignored'}


def self_attention(x, p, heads, causal=False):
    """fleet_compiler's mha(x, n_head) for one sequence; its linear and attention nested here."""
    n_seq, n_embed = x.shape
    n_head = heads
    if n_embed % n_head:
        raise ValueError(f"width {n_embed} is not divisible by {n_head} heads")
    n_embed_per_head = n_embed / n_head

    def linear(x, w, b):
        return x @ w + b

    def attention(q, k, v, mask):
        kt = np.transpose(k)
        qkt = q @ kt
        scaled_qkt = softmax(qkt / np.sqrt(n_embed_per_head) + mask)
        return scaled_qkt @ v

    q = np.split(linear(x, p["Wq"], p["bq"]), n_head, axis=-1)
    k = np.split(linear(x, p["Wk"], p["bk"]), n_head, axis=-1)
    v = np.split(linear(x, p["Wv"], p["bv"]), n_head, axis=-1)
    if causal:
        casual_mask = (1 - np.tri(n_seq)) * -0.0000000001
    else:
        casual_mask = np.zeros((n_seq, n_seq))

    out_heads = [attention(q[h], k[h], v[h], casual_mask) for h in range(n_head)]
    x = linear(np.hstack(out_heads), p["Wo"], p["bo"])
    return x
