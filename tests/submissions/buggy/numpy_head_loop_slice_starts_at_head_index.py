"""Blind round 13 (b13_03, issue 38): a plain numpy head-loop attention (GitHub snippets slicing
Q[:, i:i + head_dim]) with the loop variable used as the column offset.

Mistake: self_attention slices head h as columns `h : h + d_h` (right: h*d_h : (h+1)*d_h).
Right with one head; wrong with several.

Grader: only observed blind ("Your `self_attention` is right with one head, wrong with heads=2:
look at each step that depends on the number of heads ...", only_one_head); named since the
error model cuts chunks overlapping (error_model/chunks.py).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:chunks_overlap:self_attention/split_heads*:heads-chunks-overlap',
          'no-causal-mask': 'op:chunks_overlap:self_attention/split_heads*:heads-chunks-overlap'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention, one head at a time."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    head_dim = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        q, k, v = Q[:, h:h + head_dim], K[:, h:h + head_dim], V[:, h:h + head_dim]
        scores = q @ k.T / np.sqrt(head_dim)
        if causal:
            scores = scores + np.triu(np.full((T, T), -np.inf), k=1)
        outs.append(softmax(scores, axis=-1) @ v)
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
