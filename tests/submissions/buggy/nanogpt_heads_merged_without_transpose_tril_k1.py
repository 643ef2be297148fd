"""Blind round 19 (b19_06, issue 38): self_attention ported from Karpathy's nanoGPT
(`CausalSelfAttention`: q, k, v as (n_head, T, hs), the `bias` buffer a lower triangle).

Mistakes (both in self_attention):
1. The heads are merged by `y.reshape(T, C)` straight from (n_head, T, hs), without nanoGPT's
   `y.transpose(1, 2)` first (right with one head).
2. The causal buffer is `np.tril(np.ones((T, T)), k=1)`: each token also sees the next one
   (right with causal=False).

Grader: at blind time and now, both named: the merge as at blind time "`x.swapaxes(-2, -3)` is used
without its transpose" (now: "the heads' outputs are merged by a reshape without moving the head
axis back first ...") (multi-head-attention), both at once on no-causal-mask (the mask one diagonal
off, k=1); why-positions gets its equivariance checklist (ALIASES). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=1'
                            '+op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def self_attention(x, p, heads, causal=False):
    T, C = x.shape  # sequence length, embedding dimensionality (n_embd)
    n_head = heads
    if C % n_head != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // n_head
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    k = k.reshape(T, n_head, hs).transpose(1, 0, 2)  # (nh, T, hs)
    q = q.reshape(T, n_head, hs).transpose(1, 0, 2)  # (nh, T, hs)
    v = v.reshape(T, n_head, hs).transpose(1, 0, 2)  # (nh, T, hs)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[-1]))
    if causal:
        bias = np.tril(np.ones((T, T)), k=1)
        att = np.where(bias == 0, float('-inf'), att)
    att = softmax(att, axis=-1)
    y = att @ v  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    y = y.reshape(T, C)  # re-assemble all head outputs side by side
    return y @ p["Wo"] + p["bo"]
