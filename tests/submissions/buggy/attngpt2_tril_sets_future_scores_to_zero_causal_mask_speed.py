"""Blind round 72 (b72_08, issue 38): self_attention and ANSWERS["causal_mask"] ported from
bhosmer/mm `examples/attngpt2/README.md` (`attn = softmax(tril(Q @ K_t / sqrt(d_head)))`, per-head
wQ/wK/wV/wO slices).

Mistakes:
1. self_attention (line 99 of the file as delivered): `causal=True` does `np.tril(scores)`,
   which sets the future scores to 0, not -inf, so later tokens still get weight exp(0). Wrong
   with causal=True only; the default (no mask) is right.
2. ANSWERS["causal_mask"] (line 127): "speed". Always wrong.

Grader: at blind time (2df48139) and now, 105/110, both named on no-causal-mask. Mistake 1 ("In
`self_attention` (at the model solution's step `attention(q, k, v, mask)`), `-np.inf` is 0
instead: a value meant to vanish after exp still counts, exp(0) = 1 (hide it with -inf, not
0)"); mistake 2 ("A mask saves no compute ... an image has no order in time"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:infinity:self_attention/attention:minus-inf-as-0'}
ALIASES = ('causal_mask:speed',)  # mistake 2, named on the same exercise


def self_attention(x, p, heads, causal=False):
    d_seq, d_emb = x.shape
    if d_emb % heads:
        raise ValueError("d_emb must be a multiple of heads")
    d_head = d_emb // heads
    out = np.zeros((d_seq, d_emb))
    for h in range(heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        wQ, wK, wV = p["Wq"][:, cols], p["Wk"][:, cols], p["Wv"][:, cols]
        wO = p["Wo"][cols, :]                       # [d_head, d_emb]
        Q = x @ wQ + p["bq"][cols]
        K_t = wK.T @ x.T + p["bk"][cols][:, None]   # [d_head, d_seq]
        V = x @ wV + p["bv"][cols]
        scores = Q @ K_t / math.sqrt(d_head)
        if causal:
            scores = np.tril(scores)
        attn = softmax(scores, axis=-1)
        out += (attn @ V) @ wO
    return out + p["bo"]


ANSWERS["causal_mask"] = "speed"
