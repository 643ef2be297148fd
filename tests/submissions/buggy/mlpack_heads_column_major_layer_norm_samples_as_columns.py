"""Blind round 61 (b61_04, issue 38): layer_norm and self_attention ported from mlpack/mlpack
`src/mlpack/methods/ann/layer/multihead_attention_impl.hpp` (Forward: qProj, kProj, vProj,
Armadillo's column-major `reshape(tgtSeqLen, headDim, numHeads)`, a per-head loop) and
`layer_norm_impl.hpp` (Forward: one sample per column, input (size, batch)).

Mistakes:
7. self_attention (lines 121-123 and 138 of the file as delivered): Armadillo's column-major
   reshape ported as numpy's C-order `reshape(T, headDim, numHeads)`, so head h takes the
   columns h, h + heads, ... (interleaved) instead of the block h*d_h:(h+1)*d_h, and the merge
   the same way. Wrong only with heads > 1.
8. layer_norm (lines 100-101): transposes to mlpack's (size, batch) layout and scales with
   `gamma[:, None]`, `beta[:, None]`: right only for 2-D (T, d) input; batched (B, T, d) input
   raises ValueError (broadcast) and a single 1-D token returns (d, d).

Grader: at blind time (90d6c97e) and now, 94/110. Mistake 7 named on multi-head-attention and
no-causal-mask ("Your heads take interleaved columns (h, h + heads, ...) ... reshape(T, heads, d_h),
not reshape(T, d_h, heads)"; no-causal-mask's random check in the error model's words). Mistake 8
only observed on layer-norm's random check (only_2d_inputs: "Your `layer_norm` is right for inputs
of two axes (T, d), and raises ValueError for an input with leading axes (3, 4, 2) ..."). A hint
would say that transposing to (d, ...) and scaling by `gamma[:, None]` / `beta[:, None]` works for
2-D input only: normalise and scale along the last axis, `* gamma + beta`, with no transpose.
Being mended: not every mistake named, so in unnamed/; EXPECT holds what must hold today: the
points lost, no wrong cause, mistake 7 still named.
Named since, in the same session (error_model/column_major.py, a LayerNorm done on the
transposed input with its parameters as columns): moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:samples_as_columns:layer_norm:gamma-beta-samples-as-columns',
          'multi-head-attention': 'attention_heads_interleaved',
          'no-causal-mask': 'op:heads_interleaved:self_attention:heads-interleaved-split-and-merge'}


def layer_norm(x, gamma, beta, eps=1e-6):
    # mlpack stores one sample per column: input is (size, batch).
    input = np.asarray(x, dtype=float).T
    mean = np.mean(input, axis=0)
    variance = np.var(input, axis=0)
    output = input - mean
    output = output / np.sqrt(variance + eps)
    output = output * gamma[:, None]
    output = output + beta[:, None]
    return output.T


def self_attention(x, p, heads, causal=False):
    tgtSeqLen, embedDim = x.shape
    srcSeqLen = tgtSeqLen
    numHeads = heads
    if embedDim % numHeads != 0:
        raise ValueError("Embedding dimension must be divisible by number of attention heads.")
    headDim = embedDim // numHeads

    qProj = x @ p["Wq"] + p["bq"]
    kProj = x @ p["Wk"] + p["bk"]
    vProj = x @ p["Wv"] + p["bv"]

    # The scaling factor sqrt(headDim) is used to prevent exploding values.
    qProj = qProj / math.sqrt(headDim)

    # Split the qProj, kProj and vProj into n heads.
    qProj = qProj.reshape(tgtSeqLen, headDim, numHeads)
    kProj = kProj.reshape(srcSeqLen, headDim, numHeads)
    vProj = vProj.reshape(srcSeqLen, headDim, numHeads)

    attnMask = None
    if causal:
        attnMask = np.where(np.tril(np.ones((tgtSeqLen, srcSeqLen))) > 0, 0.0, -np.inf)

    attnOut = np.empty((tgtSeqLen, headDim, numHeads))
    for i in range(numHeads):
        scores = qProj[:, :, i] @ kProj[:, :, i].T
        if attnMask is not None:
            scores = scores + attnMask
        scores = softmax(scores, axis=1)
        attnOut[:, :, i] = scores @ vProj[:, :, i]

    # Concatenate output of all the heads.
    attnOut = attnOut.reshape(tgtSeqLen, embedDim)
    return attnOut @ p["Wo"] + p["bo"]
