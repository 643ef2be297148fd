"""Issue 38 (session 32): self_attention written one head at a time (a loop over column blocks,
as tutorials write before they vectorise), whose causal branch builds the masked scores with
`np.where` and never assigns them: the line reads like a masked_fill that works in place.

Mistakes:
1. self_attention: `np.where(keep, s, -1e9)` on a line of its own, so causal=True returns the
   unmasked attention. Wrong with causal=True only.

Grader: named on no-causal-mask's causal checks (kinds/exact.py, the listed mistake's
`exact_hint`): "causal=True returns exactly the unmasked result: no mask reaches the scores",
with the line quoted (report/discarded.py): "`np.where(keep, s, -1e9)` on line N returns the
masked scores as a new array that is never used: assign it (`s = np.where(...)`)".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_ignored'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention, one head at a time."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    keep = np.tril(np.ones((T, T), dtype=bool))
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        s = q[:, cols] @ k[:, cols].T / np.sqrt(d_h)
        if causal:
            np.where(keep, s, -1e9)
        outs.append(softmax(s, axis=-1) @ v[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
