"""Blind round 5 (b5_10, issue 38): self_attention after a flax/JAX tutorial (heads-first arrays),
embed_image with [CLS] appended at the end of the sequence.

Mistakes:
1. self_attention: the heads are merged by out.reshape(T, d) straight from (heads, T, d_h),
   without moving the head axis back behind the tokens. Right with one head; shows only with
   several heads.
2. embed_image: [CLS] is appended as the LAST row (np.vstack([tokens, cls])) instead of row 0,
   then the positions are added. Shows on every input.

Grader: Both are named; the merge in the words of the reference's merge_heads.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def self_attention(x, p, heads, causal=False):
    """Multi-head attention, heads-first (heads, T, d_h)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def to_heads(t):
        return t.reshape(T, heads, d_h).transpose(1, 0, 2)

    q = to_heads(x @ p["Wq"] + p["bq"])
    k = to_heads(x @ p["Wk"] + p["bk"])
    v = to_heads(x @ p["Wv"] + p["bv"])
    s = np.matmul(q, np.swapaxes(k, -1, -2)) / math.sqrt(d_h)
    if causal:
        s = s + np.triu(np.full((T, T), -np.inf), k=1)
    a = softmax(s, axis=-1)
    out = np.matmul(a, v)                     # (heads, T, d_h)
    return out.reshape(T, d) @ p["Wo"] + p["bo"]


def embed_image(image, params):
    """Patch tokens, the [CLS] token, positions."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.vstack([tokens, params["cls"]])
    return seq + params["pos"]
