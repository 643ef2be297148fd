"""Blind round 21 (b21_01, issue 38): self_attention and layer_norm ported from
huggingface/candle's ViT (candle-transformers/src/models/vit.rs, candle-nn's layer_norm, Rust):
`xs` for activations, explicit (seq_len, hidden) unpacking, `softmax_last_dim`, a
LayerNormConfig-like default. The student's top-level helper `softmax_last_dim` is nested in
self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention splits the heads with `xs.reshape((heads, seq_len, head_dim))`, a plain
   reshape with no transpose (candle's `.reshape((b, n, h, d))?.transpose(1, 2)` collapsed into
   one reshape); the merge back is the right transpose and reshape: wrong whenever heads > 1.
2. layer_norm's default eps is 1e-5 (candle_nn's LayerNormConfig) instead of 1e-6.

Grader: at blind time and now, both named: the split "done with a reshape alone" (a reshape
where `x.reshape(*lead, T, heads, d // heads).swapaxes(-2, -3)` belongs) on no-causal-mask and
multi-head-attention, and eps 1e-05 where the lecture's is 1e-06; why-positions gets its
equivariance checklist (ALIASES); vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'no-causal-mask': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes',
          'multi-head-attention': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the split


def self_attention(x, p, heads, causal=False):
    def softmax_last_dim(xs):
        return softmax(xs, axis=-1)

    (seq_len, hidden) = x.shape
    if hidden % heads != 0:
        raise ValueError(f"hidden size {hidden} not divisible by {heads} heads")
    head_dim = hidden // heads

    def transpose_for_scores(xs):
        return xs.reshape((heads, seq_len, head_dim))

    q = transpose_for_scores(x @ p["Wq"] + p["bq"])
    k = transpose_for_scores(x @ p["Wk"] + p["bk"])
    v = transpose_for_scores(x @ p["Wv"] + p["bv"])
    attn = (q @ k.transpose((0, 2, 1))) / math.sqrt(head_dim)
    if causal:
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        attn = np.where(mask, -np.inf, attn)
    attn = softmax_last_dim(attn)
    ys = attn @ v  # (heads, seq_len, head_dim)
    ys = ys.transpose((1, 0, 2)).reshape((seq_len, hidden))
    return ys @ p["Wo"] + p["bo"]


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    mean_x = x.mean(axis=-1, keepdims=True)
    xs = x - mean_x
    norm_x = (xs * xs).mean(axis=-1, keepdims=True)
    x_normed = xs / np.sqrt(norm_x + eps)
    return x_normed * gamma + beta
