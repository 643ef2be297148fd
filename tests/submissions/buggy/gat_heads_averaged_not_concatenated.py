"""Blind round 13 (b13_13, issue 38): PyG GATConv concat=False habit: the head outputs are averaged
(then tiled back to width d) instead of concatenated.

Grader: only observed ("right with one head, wrong with heads=2 ...", only_one_head).
Since session 15 the heads' average is named (chunks.chunks_averaged: the merge's chunks
averaged and tiled back, `np.tile(mean, heads)`): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:chunks_averaged:self_attention/merge_heads:heads-chunks-averaged',
          'no-causal-mask': 'op:chunks_averaged:self_attention/merge_heads:heads-chunks-averaged'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention; the heads are averaged (GATConv concat=False)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out_heads = softmax(scores, axis=-1) @ v            # (heads, T, d_h)
    out = out_heads.mean(axis=0)                        # (T, d_h)
    return np.tile(out, heads) @ p["Wo"] + p["bo"]
