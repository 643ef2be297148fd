"""Blind round 18 (b18_13, issue 38): self_attention ported from jaymody/picoGPT (gpt2.py's mha:
np.split into heads, attention per head, the causal mask made optional).

Mistake:
1. The heads are merged with `np.concatenate(out_heads).reshape(n_seq, n_embd)` instead of
   picoGPT's `np.hstack(out_heads)`: concatenate's default axis 0 stacks the heads as rows and the
   reshape deals them across the width (right with one head).
The student's `linear` and `attention` helpers are nested in self_attention here: the builder
replaces only the solution's own definitions.

Grader: at blind time and now, named (at blind time "`x.swapaxes(-2, -3)` is used without its
transpose"; now: "the heads' outputs are merged by a reshape without moving the head axis back
first ...", exactly equivalent); why-positions gets its equivariance checklist (ALIASES). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def self_attention(x, p, heads, causal=False):  # [n_seq, n_embd] -> [n_seq, n_embd]
    """picoGPT mha; its linear and attention (top-level in the student's file) nested here."""
    def linear(x, w, b):  # [m, in], [in, out], [out] -> [m, out]
        return x @ w + b

    def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
        return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v

    n_seq, n_embd = x.shape
    n_head = heads
    if n_embd % n_head:
        raise ValueError("n_embd must be divisible by n_head")
    # qkv projection
    q = linear(x, p["Wq"], p["bq"])
    k = linear(x, p["Wk"], p["bk"])
    v = linear(x, p["Wv"], p["bv"])
    # split into heads
    qkv_heads = list(map(lambda a: np.split(a, n_head, axis=-1), [q, k, v]))  # [3, n_head, n_seq, n_embd/n_head]
    # causal mask to hide future inputs from being attended to
    causal_mask = (1 - np.tri(n_seq, dtype=x.dtype)) * -1e10 if causal else np.zeros((n_seq, n_seq))
    # perform attention over each head
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]
    # merge heads
    x = np.concatenate(out_heads).reshape(n_seq, n_embd)
    # out projection
    return linear(x, p["Wo"], p["bo"])
