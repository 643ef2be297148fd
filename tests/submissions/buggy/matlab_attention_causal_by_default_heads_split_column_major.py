"""Blind round 41 (b41_05, issue 38): MATLAB, matlab-deep-learning/transformer-models
(+transformer/+layer/attention.m: iSplitHeads / iMergeHeads, multiheadAttention.m,
maskAttentionWeights.m; features-first arrays), as self_attention.

Mistakes:
1. self_attention: `causal=True` by default (MATLAB's `nvp.CausalMask (1,1) logical = true`): a
   call without `causal` (encoder_block, vit_forward) hides later tokens; causal=False passed is
   honoured.
2. self_attention: iSplitHeads' column-major `reshape(X, splitSize/numHeads, numHeads, [])` ported
   as a C-order `X.reshape(d_h, heads, T)` on the features-first (d, T) array: head h takes the
   strided features h, h + heads, ... (several heads only).

Grader: at blind time (6092674) and now, 1 named (causal_default_true: "Your `self_attention`
masks the later tokens when `causal` is left out ...") on why-positions and "by default, the
first token sees the last one"; 2 named ("your heads take interleaved columns") on the causal
(heads=2) and hidden causal checks. Wrong hint at blind time: on multi-head-attention's several
head counts and hidden checks (calls leaving `causal` out) "(1) In `self_attention`,
`causal_mask(x.shape[-2]) if causal else None` is always `causal_mask(x.shape[-2])`: whatever
`causal` says, the code takes that branch" (condition_ignored), while the file honours
causal=False. Now "whatever `causal` says" is said only where a call passed `causal` against the
branch: those checks give their checklist (the default flip is named on no-causal-mask); and
no-causal-mask's explicit-causal check names 2 as listed (attention_heads_interleaved). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'causal_default_true',
          'why-positions': 'causal_default_true'}
ALIASES = ('attention_heads_interleaved',)  # mistake 2 as listed on no-causal-mask's causal check


def self_attention(x, p, heads, causal=True):
    """Multi-head self-attention (T, d) -> (T, d), after transformer.layer.attention (MATLAB).

    As in MATLAB the activations are kept features-first: X is numFeatures-by-numSubwords.
    """
    X = np.asarray(x).T  # numFeatures-by-numInputSubwords
    numFeatures = X.shape[0]
    if numFeatures % heads != 0:
        raise ValueError(f"{numFeatures} features cannot be split into {heads} heads")

    def convolution1d(X, W, b):
        # Z = W'*X + b  (a fully connected layer applied to every subword)
        return W.T @ X + b[:, None]

    def iSplitHeads(X, splitSize, numHeads):
        # X = reshape(X, splitSize/numHeads, numHeads, []);  Z = permute(X, [1 3 2])
        X = X.reshape(splitSize // numHeads, numHeads, -1)
        return X.transpose(0, 2, 1)

    def iMergeHeads(X):
        # X = permute(X, [1 3 2]);  Z = reshape(X, size(X,1)*size(X,2), [])
        X = X.transpose(0, 2, 1)
        return X.reshape(X.shape[0] * X.shape[1], -1)

    def maskAttentionWeights(W, CausalMask):
        if CausalMask:
            numAllSubwords, numInputSubwords = W.shape[0], W.shape[1]
            numPreviousSubwords = numInputSubwords - numAllSubwords
            mask = np.triu(np.ones((numAllSubwords, numInputSubwords)), numPreviousSubwords)
            mask = mask[:, :, None]
            W = W * mask - (1e10) * (1 - mask)
        return W

    def multiheadAttention(Q, K, V, CausalMask):
        # W = dlmtimes(permute(K, [2 1 3]), Q): numAllSubwords-by-numInputSubwords-by-numHeads
        W = np.einsum("fkh,fqh->kqh", K, Q)
        W = W / np.sqrt(Q.shape[0])
        W = maskAttentionWeights(W, CausalMask)
        W = softmax(W, axis=0)
        # A = dlmtimes(V, W)
        return np.einsum("fkh,kqh->fqh", V, W)

    splitSize = numFeatures
    Q = iSplitHeads(convolution1d(X, p["Wq"], p["bq"]), splitSize, heads)
    K = iSplitHeads(convolution1d(X, p["Wk"], p["bk"]), splitSize, heads)
    V = iSplitHeads(convolution1d(X, p["Wv"], p["bv"]), splitSize, heads)

    A = multiheadAttention(Q, K, V, causal)
    A = iMergeHeads(A)
    A = convolution1d(A, p["Wo"], p["bo"])
    return A.T
