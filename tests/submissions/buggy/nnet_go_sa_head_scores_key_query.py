"""Blind round 67 (b67_14, issue 38): self_attention ported from atkhx/nnet
`num/op_sa_head.go` (SAHead). The student's top-level `_sa_head` is nested in self_attention
here: the builder replaces only the solution's own definitions.

Mistakes:
20. self_attention (line 145 of the file as delivered): `weiObject :=
    keyObject.MatrixMultiply(qryObjectT)`, scores K Q^T (rows are keys), the softmax over queries
    and, with causal=True, the tril applied to that transposed matrix. Wrong on any input.

Grader: at blind time (d3fd340b) and now, 95/110, named on multi-head-attention and no-causal-mask
(at blind time "In `self_attention`, `attention(q, k, v, mask)` is given `k` and `q` the other way
round"; now: "In `self_attention`, the attention scores are computed as K Q^T, the keys times the
transposed queries, where Q K^T belongs ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:arguments:self_attention:q-and-k-swapped',
          'no-causal-mask': 'op:arguments:self_attention:q-and-k-swapped'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention: SAHead per head, concat, then Wo, bo."""
    def _sa_head(aData, headSize, keyWeights, keyBias, qryWeights, qryBias, valWeights, valBias, causal):
        k = math.pow(float(headSize), -0.5)
        keyObject = aData @ keyWeights + keyBias
        qryObject = aData @ qryWeights + qryBias
        qryObjectT = qryObject.T
        weiObject = keyObject @ qryObjectT
        weiMulObject = weiObject * k
        if causal:  # TriangleLower(-Inf)
            weiMulObject = np.where(np.tril(np.ones(weiMulObject.shape, dtype=bool)), weiMulObject, -np.inf)
        weiSoftmaxObject = softmax(weiMulObject, axis=-1)
        valObject = aData @ valWeights + valBias
        return weiSoftmaxObject @ valObject

    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    headSize = d // heads
    outs = []
    for h in range(heads):
        cols = slice(h * headSize, (h + 1) * headSize)
        outs.append(_sa_head(x, headSize,
                             p["Wk"][:, cols], p["bk"][cols],
                             p["Wq"][:, cols], p["bq"][cols],
                             p["Wv"][:, cols], p["bv"][cols], causal))
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
