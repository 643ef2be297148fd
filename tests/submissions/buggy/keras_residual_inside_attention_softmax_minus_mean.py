"""Blind round 12 (b12_08, issue 38): Source style ported: the Keras "Image classification with Vision
Transformer" / Annotated-Transformer habit of an attention layer that returns its residual
(`x + dropout(attn(x))`, the SublayerConnection folded into the attention), and a numpy blog
post on stable softmax saying any constant K can be subtracted ("any number should be fine"),
which the student took to be the mean.

Mistake 1 (self_attention): returns x + attention(x), i.e. the residual is inside the attention
function; encoder_block is the solution's and adds its own residual, so the block computes
x + LN1(x) + attn(LN1(x)). Right: self_attention returns only the projected attention output.
Shows everywhere (self_attention alone, encoder_block, vit_forward).
Mistake 2 (softmax): subtracts the mean along `axis` instead of the max. Mathematically the same;
numerically overflows (inf/inf = nan) when max - mean > ~709, e.g. a row [0, 2000]. Shows only
on inputs with a large spread; inputs near 1000 with a small spread are fine.

Grader, blind (30ff0c3): softmax observed (not_finite: "NaN or inf ... look for an overflow"); the
residual inside self_attention got expected/got only on all 5 failed checks, no hint. Since
choices.py: both named (reduction: the mean where the max belongs; input_added: `x + linear(...)`).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:reduction:softmax:max-as-mean',
          'no-causal-mask': 'op:input_added:self_attention:x-added-to-the-result',
          'multi-head-attention': 'op:input_added:self_attention:x-added-to-the-result'}


def softmax(x, axis=-1):
    z = x - np.mean(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    attn = out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
    return x + attn        # residual connection, as in the Keras layer
