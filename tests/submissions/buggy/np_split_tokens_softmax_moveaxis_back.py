"""Blind round 8 (b8_07, issue 38): a from-scratch numpy transformer that splits heads with
np.split and writes an any-axis softmax with np.moveaxis.

Mistakes:
1. self_attention: heads made with `np.split(Q, heads)` and joined with `np.concatenate(outs)`
   (Kyubyong/transformer's `tf.split(..., axis=0)` trick, jadore801120/attention-is-all-you-need-
   pytorch#7): np.split's default axis 0 cuts the tokens into groups, each attending within itself
   with all d columns. Shows only with heads > 1; raises "array split does not result in an equal
   division" when heads does not divide T.
2. softmax: moves `axis` to the end, normalises, and moves it back with the same call
   `np.moveaxis(out, axis, -1)` instead of `np.moveaxis(out, -1, axis)` (keras-team/keras#9600).
   Shows only for a 3-D+ input with an axis before the last two.

Grader: the split is observed (only_one_head: "right with one head, wrong with heads=2"), and
why-positions / no-causal-mask's properties say they could not be judged (the traceback at
np.split). The moveaxis gets nothing: one hidden stable-softmax check with no hint.
Since session 15 the moveaxis is named (results.moved_back_alike: `np.moveaxis(out, axis, -1)`
for `np.moveaxis(out, -1, axis)`); since session 16 the split too (heads.heads_elsewhere: the
heads cut along the tokens, each group scaled by the lecture's sqrt(d // heads)).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:heads_elsewhere:self_attention:heads-split-along-tokens',
          'stable-softmax': 'op:moved_back_alike:softmax:axis-moved-back-alike'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    outs = []
    for q, k, v in zip(np.split(Q, heads), np.split(K, heads), np.split(V, heads)):
        s = q @ k.T / np.sqrt(d_h)
        if causal:
            n = s.shape[0]
            s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
        outs.append(softmax(s) @ v)
    return np.concatenate(outs) @ p["Wo"] + p["bo"]


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out."""
    z = np.moveaxis(np.asarray(x, dtype=float), axis, -1)   # work on the last axis
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out = e / e.sum(axis=-1, keepdims=True)
    return np.moveaxis(out, axis, -1)
