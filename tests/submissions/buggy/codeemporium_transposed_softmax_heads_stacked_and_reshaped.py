"""Blind round 34 (b34_12, issue 38): softmax and self_attention ported from
ajhalthor/Transformer-Neural-Network (CodeEmporium's "Self Attention for Transformers Neural
Network" and "Multi Head Attention" notebooks: `softmax(x) = (np.exp(x).T / np.sum(np.exp(x),
axis=-1)).T`, scaled_dot_product_attention, `values.reshape(...)`). The notebook's
scaled_dot_product_attention is nested in self_attention.

Mistakes:
1. softmax: no max subtraction: exp overflows near 1000 (nan).
2. softmax (batched input or axis != -1 only): the transpose trick divides correctly only for
   2-D input along the last axis; a 3-D input raises ValueError (broadcast) or divides along the
   wrong axis, axis=0 on a 2-D input raises ValueError.
3. self_attention (several heads only): the (heads, T, d_h) stack is merged with a plain
   `values.reshape(T, heads * d_h)`, without moving the head axis back: rows mix heads and
   tokens. Right with one head.

Grader: at blind time (5712eea) and now, mistake 1 named (at blind time "In `softmax`, the max
subtraction `np.max(x, axis=axis, keepdims=True)` is left out"; now: "In `softmax`, the max
subtraction is left out of the model solution's `x - np.max(x, axis=axis, keepdims=True)`") on the
overflow check, and mistake 3 named (at blind time "`x.swapaxes(-2, -3)` is used without its
transpose"; now: "the heads' outputs are merged by a reshape without moving the head axis back
first ...") on no-causal-mask and multi-head-attention (graded with the grader's softmax standing
in); why-positions runs the file's self_attention (attention_not_equivariant). Mistake 2 only told
by checklists (the small examples: "Pass `axis` and keepdims=True to both np.max and np.sum ...";
the hidden check the generic one) and an observation that softmax failed on the sum-to-1 property's
input: no hint names the transpose trick. Since the name34 merge, mistake 2 named
(broadcasts.divided_by_transpose: "`e / np.sum(e, axis=axis, keepdims=True)` is written `(e.T /
np.sum(e, axis=axis)).T`") on the small examples, and with mistake 1 as "2 mistakes at once" on the
hidden check: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'
                            '+op:divided_by_transpose:softmax:sum-by-transpose',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant'}


def softmax(x, axis=-1):
    return (np.exp(x).T / np.sum(np.exp(x), axis=axis)).T


def self_attention(x, p, heads, causal=False):
    sequence_length, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be divisible by num_heads")
    head_dim = d_model // heads

    def scaled_dot_product_attention(q, k, v, mask=None):
        d_k = q.shape[-1]
        scaled = np.matmul(q, k.T) / math.sqrt(d_k)
        if mask is not None:
            scaled = scaled + mask
        attention = softmax(scaled)
        out = np.matmul(attention, v)
        return out, attention

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]

    mask = None
    if causal:
        mask = np.tril(np.ones((sequence_length, sequence_length)))
        mask[mask == 0] = -np.inf
        mask[mask == 1] = 0

    values = []
    for h in range(heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        out, attention = scaled_dot_product_attention(q[:, cols], k[:, cols], v[:, cols], mask)
        values.append(out)
    values = np.array(values)                                   # (num_heads, seq, head_dim)
    values = values.reshape(sequence_length, heads * head_dim)  # (seq, d_model)
    return values @ p["Wo"] + p["bo"]
