"""Blind round 66 (b66_02, issue 38): layer_norm and self_attention ported
from atkhx/nnet (Go: `num/op_lnorm.go`, `num/op_variance.go`, `num/op_sa_head.go`). The
student's top-level `_mean_by_rows` and `_variance_by_rows` are nested in layer_norm here: the
builder replaces only the solution's own definitions.

Mistakes:
3. layer_norm (line 141 of the file as delivered): VarianceByRows divides by chunkSize - 1, the
   unbiased variance (ddof=1). Wrong on any input.
4. layer_norm (line 153): eps added to the standard deviation, `sqrt(var) + eps`, not inside the
   root. Wrong on any input.
5. self_attention (line 175): scores `key @ query.T` (SAHead's
   `keyObject.MatrixMultiply(qryObject.Transpose())`), the transposed score matrix. Wrong on any
   input with T > 1, one head or many.

Grader: at blind time (f4776223) and now, 90/110, all named. Mistakes 3 and 4 on layer-norm ("You
used the unbiased variance (ddof=1 ...)", and "2 mistakes at once" with "eps goes inside the square
root"); mistake 5 on multi-head-attention and no-causal-mask (at blind time "In `self_attention`,
`attention(q, k, v, mask)` is given `k` and `q` the other way round"; now: "In `self_attention`,
the attention scores are computed as K Q^T, the keys times the transposed queries (at your line
`wei_object = key_h @ qry_h.T`), where Q K^T belongs ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside',
          'multi-head-attention': 'op:arguments:self_attention:q-and-k-swapped',
          'no-causal-mask': 'op:arguments:self_attention:q-and-k-swapped'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis (port of Data.LNorm)."""
    def _mean_by_rows(x):
        # num.MeanByRows: one mean per row of width W
        return x.sum(axis=-1, keepdims=True) / x.shape[-1]

    def _variance_by_rows(x, mean):
        # num.VarianceByRows: k := 1.0 / float64(chunkSize-1)
        chunk_size = x.shape[-1]
        k = 1.0 / float(chunk_size - 1)
        return k * ((x - mean) * (x - mean)).sum(axis=-1, keepdims=True)

    x = np.asarray(x, dtype=float)
    mean = _mean_by_rows(x)
    x_sub = x - mean
    vars_ = _variance_by_rows(x, mean)

    sqrt = np.sqrt(vars_)
    sqrt_eps = sqrt + eps          # sqrt.AddScalar(0.000001)
    x_div = x_sub / sqrt_eps
    x_mul = gamma * x_div
    return x_mul + beta


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), one SAHead per head, heads concatenated."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    head_size = d // heads
    k = math.pow(float(head_size), -0.5)

    key_object = x @ p["Wk"] + p["bk"]
    qry_object = x @ p["Wq"] + p["bq"]
    val_object = x @ p["Wv"] + p["bv"]

    outs = []
    for h in range(heads):
        cols = slice(h * head_size, (h + 1) * head_size)
        key_h, qry_h, val_h = key_object[:, cols], qry_object[:, cols], val_object[:, cols]
        wei_object = key_h @ qry_h.T                 # keyObject.MatrixMultiply(qryObject.Transpose())
        wei_object = wei_object * k
        if causal:                                   # TriangleLowerSoftmax
            wei_object = np.where(np.tril(np.ones((T, T), dtype=bool)), wei_object, -np.inf)
        wei_softmax = softmax(wei_object, axis=-1)
        outs.append(wei_softmax @ val_h)
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
