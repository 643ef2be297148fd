"""Blind round 50 (b50_03, issue 38): self_attention ported from ml-explore/mlx's older
python/mlx/nn/layers/transformer.py (`MultiHeadAttention.__call__` without the batch axis:
`keys.transpose(1, 2, 0)`, `scale = math.sqrt(1 / queries.shape[-1])`, the module's
`create_additive_causal_mask`), with the source's missing transpose before the heads are merged.

Mistakes:
1. `values_hat = (scores @ values).reshape(L, -1)`: the (heads, T, d_h) output is reshaped to
   (T, d) without moving the head axis back, so rows mix tokens and heads. heads = 1 is right;
   any heads > 1 is wrong, causal or not.

The blind key had a second mistake, the additive causal mask of -1e9 (`mask.astype(dtype) *
-1e9`) in place of -inf or exclusion. It is not a mistake for this course: the exercise's own
hint (no-causal-mask, attention_causal_ignored) says "Fill them with -inf, or a large negative
such as -1e9", so this fixture lists M1 only and keeps the source's -1e9 mask, which must cost
nothing. The student's create_additive_causal_mask (top-level in the file) is nested in
self_attention here: the builder replaces only the solution's own definitions.

Grader: at blind time (593126bb) and now, named on multi-head-attention and no-causal-mask (all
four checks): "In `self_attention`, the heads' outputs are merged by a reshape without moving the
head axis back first: the (heads, T, d_h) array must become (T, heads, d_h) before it is reshaped
to (T, d), else each row of the result mixes the values of several tokens (a reshape alone does
not move axes)."; why-positions gives its checklist line for the student's self_attention and
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def self_attention(x, p, heads, causal=False):
    def create_additive_causal_mask(N, dtype=np.float32):
        indices = np.arange(N)
        mask = indices[:, None] < indices[None]
        mask = mask.astype(dtype) * -1e9
        return mask

    L, D = x.shape
    num_heads = heads
    if (D % num_heads) != 0:
        raise ValueError(
            "The input feature dimensions should be divisible by the "
            f"number of heads ({D} % {num_heads}) != 0"
        )
    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]

    S = L
    queries = queries.reshape(L, num_heads, -1).transpose(1, 0, 2)
    keys = keys.reshape(S, num_heads, -1).transpose(1, 2, 0)
    values = values.reshape(S, num_heads, -1).transpose(1, 0, 2)

    # Dimensions are [num heads x sequence x hidden dim]
    scale = math.sqrt(1 / queries.shape[-1])
    scores = (queries * scale) @ keys
    if causal:
        mask = create_additive_causal_mask(L)
        scores = scores + mask.astype(scores.dtype)
    scores = softmax(scores, axis=-1)
    values_hat = (scores @ values).reshape(L, -1)

    return values_hat @ p["Wo"] + p["bo"]
