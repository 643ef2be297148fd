"""Blind round 37 (b37_13, issue 38): softmax and self_attention ported from a numpy
"MULTI-HEADED ATTENTION" script (code-search file id 20534241315: `softmax(x) = (np.exp(x).T /
np.sum(np.exp(x), axis=-1)).T`, scaled_dot_product_attention with an additive -inf mask, the
heads stacked and reshaped).

Mistakes:
1. softmax has no max subtraction: inputs near 1000 give nan.
2. softmax's `.T` trick ignores `axis` and breaks on batched 3-D input: `.T` reverses every axis,
   so on a (4, 4, 4) input the values are off even with axis=-1 and a (2, 4, 6) input raises a
   broadcast ValueError. Right for 1-D and 2-D input with axis=-1.
3. self_attention stacks the per-head outputs into (heads, T, d_h) and reshapes to (T, d) with no
   transpose: heads and tokens get interleaved. Right for one head.

Grader: at blind time (273cad6), 1 named ("the max subtraction ... is left out") on the overflow
check; 2 named only on the 2-D axis=0 case ("`axis` is taken as its default, -1, whatever is
given", true there), the 3-D cases (sum-to-1 property, hidden) got only `[checklist]`s; 3 named
("`x.swapaxes(-2, -3)` is used without its transpose"; now: "the heads' outputs are merged by a
reshape without moving the head axis back first ...") on the four failed attention checks with
the grader's softmax standing in; why-positions has the true `[checklist]` about
self_attention's row order (attention_not_equivariant); vit-checkpoint observes both. Now the
hidden check (3-D inputs, other axes) names 1 and 2 together: the max subtraction left out, and
`(e.T / np.sum(e, axis=-1)).T` (broadcasts.divided_by_transpose's last-axis trick: `axis` never
read, `.T` reversing every axis); the 2-D small examples keep the axis-as-default reading, the
sum-to-1 property its checklist. Every mistake named: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'
                            '+op:divided_by_transpose:softmax:sum-by-transpose-last-axis',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant'}


def softmax(x, axis=-1):
    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T


def self_attention(x, p, heads, causal=False):
    def scaled_dot_product_attention(q, k, v, mask=None):
        d_k = q.shape[-1]
        scaled = np.matmul(q, k.T) / math.sqrt(d_k)
        if mask is not None:
            scaled = scaled + mask
        attention = softmax(scaled)
        out = np.matmul(attention, v)
        return out, attention

    sequence_length, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    head_dim = d_model // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]

    mask = None
    if causal:
        mask = np.full((sequence_length, sequence_length), float('-inf'))
        mask = np.triu(mask, k=1)

    values = []
    for h in range(heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        out, attention = scaled_dot_product_attention(q[:, cols], k[:, cols], v[:, cols], mask)
        values.append(out)
    values = np.stack(values)  # (num_heads, sequence_length, head_dim)
    values = values.reshape(sequence_length, heads * head_dim)
    return values @ p["Wo"] + p["bo"]
