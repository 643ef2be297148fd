"""Blind round 55 (b55_02, issue 38): softmax and self_attention ported from
apovalov/gpt_handmade_numpy `src/causal_self_attention.py` (`softmax`, `attention`, `mha`).
self_attention is the source's, right: Wq|Wk|Wv concatenated as `c_attn`, heads split with
`np.split`, `(1 - np.tri(n_seq)) * -1e10` when causal (the course accepts the additive -1e10),
ValueError from `np.split` when heads does not divide d. The student's `linear` and `attention`
(top-level in the file) are nested in self_attention here: the builder replaces only the
solution's own definitions.

Mistakes:
1. softmax takes `axis` but keeps the source's hard-coded `axis=-1` for both the max and the sum:
   with axis=0 on a 2-D array, or axis=1 on a 3-D one, it normalises along the last axis (max
   |diff| 0.58). axis=-1 (1-D, 2-D, batched 3-D) is right.

Grader: at blind time (cdc1de9a) and now, named on stable-softmax's small examples and hidden
check ("In `softmax`, `axis` is taken as its default, -1, whatever is given."); the probability
property tells its checklist (softmax_wrong_axis). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default'}
CORRECT = ('self_attention',)  # the source's multi-head attention, right
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on the same axis


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`."""
    # We subtract max(x) for numerical stability
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    def linear(x, w, b):  # [m, in], [in, out], [out] -> [m, out]
        return x @ w + b

    def attention(q, k, v, mask):
        d_k = q.shape[-1]
        scores = q @ k.T / np.sqrt(d_k) + mask
        weights = softmax(scores)
        return weights @ v

    c_attn = {"w": np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1),
              "b": np.concatenate([p["bq"], p["bk"], p["bv"]])}
    c_proj = {"w": p["Wo"], "b": p["bo"]}
    n_head = heads

    x = linear(x, **c_attn)
    n_seq, n_embd = x.shape

    # split into qkv
    qkv = np.split(x, 3, axis=-1)

    # split into heads
    q, k, v = [np.concatenate(np.split(head, n_head, axis=-1), axis=0) for head in qkv]

    if causal:
        causal_mask = (1 - np.tri(n_seq)) * -1e10
    else:
        causal_mask = np.zeros((n_seq, n_seq))

    # perform attention over each head
    out_heads = [attention(q[i*n_seq:(i+1)*n_seq], k[i*n_seq:(i+1)*n_seq], v[i*n_seq:(i+1)*n_seq], causal_mask)
                 for i in range(n_head)]

    # merge heads
    x = np.concatenate(out_heads, axis=-1)

    # out projection
    return linear(x, **c_proj)
