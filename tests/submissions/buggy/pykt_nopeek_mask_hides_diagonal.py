"""Blind round 55 (b55_13, issue 38): self_attention with a pykt-style causal mask (find_string id
5786259910: `nopeek_mask = np.triu(np.ones((seq_len, seq_len)), k=0)`), added as `* -1e10`;
heads looped over column slices, scaled by 1/sqrt(d_h).

Mistakes:
1. The mask `np.triu(..., k=0) * -1e10` hides the diagonal too: no token sees itself, and token 0,
   every key hidden, attends to every token (a uniform shift). Wrong only with causal=True
   (heads 1, 2, 4, 8; max |diff| 1.2 to 2.3); the default (no mask) is right. The -1e10 level
   itself is accepted.

Grader: at blind time (cdc1de9a) and now, named on no-causal-mask's "causal=True gives GPT's mask,
causal=False none" and its hidden check: at blind time "In `self_attention` (at the model
solution's step `causal_mask(x.shape[-2])`), the model solution's `np.tri(T, dtype=bool)` is one
diagonal off, k=-1 instead of k=0: the keys of each query end one earlier. Fixing this is
enough: your code's one other difference shows only in what this slip leads to (a query left
with no key), never where the model solution's code runs." (true: `k=0` to `k=1` in the
student's `np.triu` gives the reference exactly). Now named under the same name, with "`np.tri(T,
dtype=bool)` is one diagonal off, ..." (no "the model solution's" before the quote). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1+~op:infinity_added:self_attention/attention:minus-inf-as-added-1e9'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    seq_len, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    attn_mask = np.zeros((seq_len, seq_len))
    if causal:
        nopeek_mask = np.triu(np.ones((seq_len, seq_len)), k=0)
        attn_mask = nopeek_mask * -1e10
    outs = []
    for h in range(heads):
        sl = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, sl] @ k[:, sl].T / math.sqrt(d_h) + attn_mask
        outs.append(softmax(scores, axis=-1) @ v[:, sl])
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
