"""Blind round 39 (b39_08, issue 38): self_attention ported from a Julia/Flux transformer
(code-search file id 6694742018: attention(Q, K, V) = V*softmax((K'Q)/sqrt(size(K, 1))), Affine,
MultiHeadedAttention), keeping Flux's features-first layout. The student's helpers stay nested
in self_attention, as in the file.

Mistakes:
1. self_attention: the scores are K'Q, laid out (keys, queries), and `softmax(score)` runs over
   numpy's last axis (Flux's softmax defaults to dims=1, the keys): the weights are normalised
   over the QUERIES (the lecture: each query's weights over the keys sum to 1). Shows with one
   head too.

Grader: at blind time (b589706) and now, named: "your values are the lecture's with
`softmax(scores, axis=-2)` (`axis=1` until round 68) in place of `softmax(scores)` ... (where your own call names the right
axis, your array holds its axes in another order than the lecture's)" on no-causal-mask, and
"The softmax runs over the queries" (attention_softmax_wrong_axis) on multi-head-attention;
vit-checkpoint observes the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:axis:self_attention/attention:softmax.axis=-2',
          'multi-head-attention': 'attention_softmax_wrong_axis'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), features-first like the Flux code."""
    T, feature_size = x.shape
    nheads = heads
    if feature_size % nheads != 0:
        raise ValueError(f"feature size {feature_size} is not divisible by {nheads} heads")
    head_size = feature_size // nheads

    def affine(W, b, inp):
        # Affine: W*x .+ b on a (features, tokens) matrix
        return W.T @ inp + b[:, None]

    def attention(Q, K, V, mask=None):
        score = K.T @ Q                       # batched_mul(K, Q, transA=true): (keys, queries)
        score = score / np.sqrt(K.shape[0])
        if mask is not None:
            score = score + (1 - mask) * -1e9
        score = softmax(score)
        return V @ score

    X = x.T                                   # (features, tokens)
    Q = affine(p["Wq"], p["bq"], X)
    K = affine(p["Wk"], p["bk"], X)
    V = affine(p["Wv"], p["bv"], X)
    mask = np.triu(np.ones((T, T))) if causal else None   # key j visible to query i when j <= i
    attended = np.vstack([
        attention(Q[i*head_size:(i+1)*head_size, :],
                  K[i*head_size:(i+1)*head_size, :],
                  V[i*head_size:(i+1)*head_size, :], mask)
        for i in range(nheads)
    ])
    return affine(p["Wo"], p["bo"], attended).T
