"""Blind round 80 (b80_03, issue 38): layer_norm and self_attention ported from
pyamin1878/jaxformers `attention.py`. The delivered file's top-level helpers
`scaled_dot_product_attention`, `split_heads` and `merge_heads` are nested in self_attention
here.

Mistakes:
1. self_attention (line 114 of the file as delivered, with the helper's line 17): the causal
   mask is built as `np.triu(ones, k=1)` (1 = future), but the helper hides where `mask == 0`:
   the past and the diagonal hidden, the future kept (the last row all -inf, so NaN). Wrong with
   causal=True only.
2. layer_norm (lines 89-90): mean and variance over `axis=1`, not the last axis. Right for 2-D
   (T, d) input; wrong on batched 3-D input, and it raises on a 1-D vector.

Grader: at blind time (a4b8673f) and now, 105/110. Mistake 1 named on no-causal-mask ("your
masking acts as ... `np.where(~mask, scores, -np.inf)` ... the scores to keep are hidden and those
to hide kept"); mistake 2 named on layer-norm ("`np.mean(x, keepdims=True, axis=1)`, instead of
over axis -1", and the same for var). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=1, keepdims=True)
    var = np.var(x, axis=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def self_attention(x, p, heads, causal=False):
    def scaled_dot_product_attention(query, key, value, mask=None):
        d_k = query.shape[-1]
        scores = np.matmul(query, np.swapaxes(key, -2, -1)) / np.sqrt(d_k)
        if mask is not None:
            scores = np.where(mask == 0, -np.inf, scores)
        attention_weights = softmax(scores, axis=-1)
        output = np.matmul(attention_weights, value)
        return output, attention_weights

    def split_heads(x, n_head):
        # [sequence, features] to [heads, sequence, features]
        m = x.shape[-1]
        split = np.reshape(x, x.shape[:-1] + (n_head, m // n_head))
        return np.transpose(split, [1, 0, 2])

    def merge_heads(x):
        x = np.transpose(x, [1, 0, 2])
        *shape, a, b = x.shape
        return np.reshape(x, shape + [a * b])

    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    q = split_heads(x @ p["Wq"] + p["bq"], heads)
    k = split_heads(x @ p["Wk"] + p["bk"], heads)
    v = split_heads(x @ p["Wv"] + p["bv"], heads)
    mask = np.triu(np.ones((T, T)), k=1) if causal else None
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ p["Wo"] + p["bo"]
