"""Blind round 14 (b14_07, issue 38): nanoGPT's model.py CausalSelfAttention, the registered
"bias" buffer written as np.tril and c_proj written by hand.

Mistakes (both in self_attention):
1. causal=True masks with np.tril(np.ones((T, T)), k=1): every token also sees the next one
   (right: k=0). causal=False is right.
2. the output bias is added before the output projection, (y + bo) @ Wo (right: y @ Wo + bo).

Grader: at blind time and now, the mask gets no hint (no-causal-mask's two causal checks);
the bias is observed (offset_rows: "the expected values plus the same vector in every row, such
as a bias (it takes p["bq"], p["bk"], p["bv"] and p["bo"] ...)"). Nothing named. Since blind
round 14's fixes both are named (the bias added before the product, an operator; the mask one
diagonal off with it, as a pair, on the hidden causal check).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=1+op:bias_first:self_attention/linear.4:b-before-product',
          'multi-head-attention': 'op:bias_first:self_attention/linear.4:b-before-product'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention, ported from nanoGPT's CausalSelfAttention.forward:
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))"""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    hs = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(hs))
    if causal:
        bias = np.tril(np.ones((T, T)), k=1)
        att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = (att @ v).transpose(1, 0, 2).reshape(T, d)
    return (y + p["bo"]) @ p["Wo"]
