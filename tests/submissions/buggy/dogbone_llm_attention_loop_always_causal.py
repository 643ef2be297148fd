"""Blind round 81 (b81_04, issue 38): self_attention ported from EightBitBanger/dogbone-llm
`src/Transformer/MultiHeadSelfAttention.cpp` (a per-head, per-token loop with a running max).

Mistakes:
1. self_attention (lines 112-130 of the file as delivered): the key loop runs `for u in
   range(t + 1)`, as the C++ source does: always causal, the `causal` flag ignored. The default
   (no mask) is wrong for every T > 1, any number of heads; causal=True is right.

Grader: at blind time (b5c841e9) and now, 93/110. Mistake 1 named on multi-head-attention and no-causal-mask ("You
applied GPT's causal mask although causal is False"). why-positions loses 1 point on its
checklist ("Your self_attention depends on the order of its rows"), true of this mistake. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal', 'no-causal-mask': 'attention_causal'}
ALIASES = ('attention_not_equivariant', 'gpt_causal_mask')  # the checklists' words for the mask


def self_attention(x, p, heads, causal=False):
    R, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by heads")
    d_head = d_model // heads

    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    out = np.zeros((R, d_model))
    scale = 1.0 / math.sqrt(d_head)

    for h in range(heads):
        off = h * d_head
        for t in range(R):
            q = Q[t, off:off + d_head]
            # find max logit for stability
            maxlogit = -np.inf
            for u in range(t + 1):
                logit = float(q @ K[u, off:off + d_head]) * scale
                if logit > maxlogit:
                    maxlogit = logit
            # compute weights
            w = np.zeros(t + 1)
            denom = 0.0
            for u in range(t + 1):
                logit = float(q @ K[u, off:off + d_head]) * scale
                e = math.exp(logit - maxlogit)
                w[u] = e
                denom += e
            invden = 1.0 / denom
            for u in range(t + 1):
                out[t, off:off + d_head] += w[u] * invden * V[u, off:off + d_head]

    return out @ p["Wo"] + p["bo"]
