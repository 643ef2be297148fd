"""Blind round 21 (b21_11, issue 38): softmax, self_attention and patch_dim ported from
huggingface/transformers.js (src/utils/maths.js's `softmax(arr)` over flat rows, Tensor.dims,
flat buffers, image processors defaulting to grayscale).

Mistakes:
1. softmax, like maths.js, always normalises along the last axis (the array viewed as rows of
   `dims.at(-1)`): the `axis` argument is accepted and ignored.
2. self_attention takes each head's columns strided (`reshape(T, head_dim, heads)`, column
   i * heads + h) instead of the contiguous block h*d_h:(h+1)*d_h; the merge uses the same layout:
   one head right, several wrong.
3. patch_dim's default channel count is C=1 (a grayscale processor's default) instead of 3.

Grader: at blind time and now, all three named: the axis hard-wired to the default (the
probability property's verdict, softmax_wrong_axis, in ALIASES), the interleaved head columns,
and C's default 1; no-causal-mask observes the heads ("only in 1 of 5 rows (row 0)");
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'stable-softmax': 'op:default:softmax:axis-as-default',
          'multi-head-attention': 'attention_heads_interleaved'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on it


def softmax(x, axis=-1):
    arr = np.asarray(x)
    dims = arr.shape
    rows = arr.reshape(-1, dims[-1]) if arr.ndim else arr.reshape(1, 1)
    max_val = rows.max(axis=1, keepdims=True)
    exps = np.exp(rows - max_val)
    sum_exps = exps.sum(axis=1, keepdims=True)
    return (exps / sum_exps).reshape(dims)


def self_attention(x, p, heads, causal=False):
    seq_len, hidden = x.shape
    if hidden % heads != 0:
        raise ValueError(f"hidden size {hidden} is not a multiple of num_heads {heads}")
    head_dim = hidden // heads

    def split(t):  # (T, d) -> (heads, T, head_dim)
        return t.reshape(seq_len, head_dim, heads).transpose(2, 0, 1)

    q = split(x @ p["Wq"] + p["bq"])
    k = split(x @ p["Wk"] + p["bk"])
    v = split(x @ p["Wv"] + p["bv"])
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(head_dim)
    if causal:
        scores = np.where(np.tril(np.ones((seq_len, seq_len))) > 0, scores, -np.inf)
    probs = softmax(scores)
    ctx = probs @ v  # (heads, T, head_dim)
    ctx = ctx.transpose(1, 2, 0).reshape(seq_len, hidden)
    return ctx @ p["Wo"] + p["bo"]


def patch_dim(P, C=1):
    return P * P * C
