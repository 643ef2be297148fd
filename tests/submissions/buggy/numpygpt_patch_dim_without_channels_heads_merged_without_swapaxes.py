"""Blind round 73 (b73_01, issue 38): patch_dim and self_attention ported from
codiceSpaghetti/numpyGPT `numpyGPT/nn/modules/attention.py`.

Mistakes:
1. patch_dim (line 25 of the file as delivered): `return P * P`, C ignored. Wrong for every
   C != 1 (256 instead of 768 for P=16 RGB).
2. self_attention (line 118): the heads merged with `attn_output.reshape(T, C)` straight from
   (heads, T, d_k), without the source's `swapaxes(1, 2)` back. Wrong with heads > 1 only.

Grader: at blind time (6245b55a) and now, 92/110. Mistake 1 named on flatten-length ("a P x P patch
holds P*P*C numbers"); mistake 2 on multi-head-attention and no-causal-mask ("the heads' outputs
are merged by a reshape without moving the head axis back first ... (heads, T, d_h) array must
become (T, heads, d_h)"); why-positions' checklist says self_attention depends on row order (true of
it); vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'channels_forgotten',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def patch_dim(P, C=3):
    return P * P


def self_attention(x, p, heads, causal=False):
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("d_model must be divisible by n_heads")
    d_k = C // heads

    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    Q = Q.reshape(T, heads, d_k).swapaxes(0, 1)
    K = K.reshape(T, heads, d_k).swapaxes(0, 1)
    V = V.reshape(T, heads, d_k).swapaxes(0, 1)

    scores = Q @ K.swapaxes(-2, -1) / np.sqrt(d_k)

    if causal:
        mask = np.triu(np.full((T, T), -np.inf), k=1)
        scores = scores + mask

    original_shape = scores.shape
    scores_reshaped = scores.reshape(-1, scores.shape[-1])
    attn_weights = softmax(scores_reshaped).reshape(original_shape)

    attn_output = attn_weights @ V

    attn_output = attn_output.reshape(T, C)
    output = attn_output @ p["Wo"] + p["bo"]
    return output
