"""Blind round 79 (b79_03, issue 38): patchify and self_attention ported from
saccinzz22/Attention_Is_All_I_Need `layers/multi_head_attention.py`.

Mistakes:
1. self_attention (lines 94-103 of the file as delivered): the source never splits into heads:
   one attention over all d columns, scaled by 1/sqrt(d_k) with d_k = d // heads. Right with one
   head only.
2. patchify (line 34): `x.reshape(W // P, P, H // P, P, C)`, the grid's rows and columns
   swapped: right on square images only.

Grader: at blind time (50c6c808) and now, 90/110. Mistake 2 named on patchify ("In `patchify`,
the model solution's `image.reshape(H // P, P, W // P, P, C)` is given `H // P` and `W // P` the
other way round"). Mistake 1 only observed: no-causal-mask "Your `self_attention` is right with
one head, wrong with heads=2: look at each step that depends on the number of heads (the split
..., the scale, the merge) ..." and multi-head-attention its checklist only. Since d85aa179 (error_model/uncut_heads.py,
`heads_uncut`) mistake 1 is named on both: "In `self_attention`, q, k and v are never split into
heads: one T x T attention runs over all d columns, its scores divided by sqrt(d // heads), the
head width, where each of the `heads` heads attends over its own d_h = d // heads columns ...".
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'multi-head-attention': 'op:heads_uncut:self_attention:heads-never-split',
          'no-causal-mask': 'op:heads_uncut:self_attention:heads-never-split'}


def patchify(image, P):
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = x.shape
    num_patches(H, W, P)
    x = x.reshape(W // P, P, H // P, P, C)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape(-1, P * P * C)


def self_attention(x, p, heads, causal=False):
    # MultiHeadAttention(d_model, num_heads)
    d_model = x.shape[-1]
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // heads

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    scores = (q @ k.T) / d_k ** 0.5
    if causal:
        mask = np.tril(np.ones((x.shape[0], x.shape[0])))
        scores = np.where(mask == 0, float("-inf"), scores)
    attn = softmax(scores, axis=-1)
    output = attn @ v
    return output @ p["Wo"] + p["bo"]
