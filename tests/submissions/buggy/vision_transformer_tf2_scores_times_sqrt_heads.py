"""Blind round 76 (b76_04, issue 38): self_attention ported from Junhojuno/vision-transfomer-tf2
`src/vit.py`.

Mistakes:
1. self_attention via its `multi_head_attention` (line 131 of the file as delivered): the scores
   multiplied by `n_heads ** 0.5` instead of divided by sqrt(d_h), as in the source. Wrong on
   every input (with one head the factor is 1 instead of 1/sqrt(d)); encoder_block and
   vit_forward inherit it. The fused QKV transpose/reshape head split is right.
The delivered file's top-level `multi_head_attention`, which its self_attention calls, is
nested in self_attention here.

Grader: at blind time (fe8b70f1), 89/110, partly named (the judge: borderline) on
multi-head-attention: "2 mistakes at once: (1)... `q.shape[-1]` reads index 0 instead of -1:
`q.shape[0]`. (2)... multiplies by ... `math.sqrt(q.shape[-1])` instead of dividing": the right
line and nature, and the value matched (Q is (heads, T, d_h): its first size is the head count),
but the code has no `q.shape`, it has `* (n_heads ** 0.5)`, so a student would look for a line
that is not there. The "one head" check got only a checklist, no-causal-mask the observation
"returns the expected values only in 1 of 4 rows (row 0)". Since cc03d09b (error_model/scales.py:
sqrt(heads), heads and the lecture's sizes as factors; a formula is said over an index read that
gives the same values) every failed check of both exercises, "one head" included, says "the
scores are multiplied by sqrt(heads), the square root of the number of heads, where the lecture
divides them by sqrt(d_h) = `math.sqrt(q.shape[-1])`", 89/110 still. In the file as delivered,
encoder-block (its encoder_block calls its own multi_head_attention, which no stand-in for
self_attention reaches) still gets only a pre-LN/MLP checklist, and vit-checkpoint observes
encoder_block. Every mistake named, no hint wrong: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:constant:self_attention/attention:scale=times-sqrt(heads)',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=times-sqrt(heads)'}


def self_attention(x, p, heads, causal=False):
    def multi_head_attention(x, p, n_heads, causal=False):
        """This is Multi-Head Attention
            - 1. 입력 patch embeddings으로부터 (query, key, value) 추출
            - 2. weight matrix 추출(weights = query @ key)
            - 3. weight matrix를 value에 곱하기
            - 4. 입력 patch embeddings와 동일한 shape으로 맞춰주고, FC layer 적용
        """
        n_patches, emb_dims = x.shape
        if emb_dims % n_heads:
            raise ValueError('emb_dims must be divisible by n_heads')
        head_dims = emb_dims // n_heads

        def extract_qkv(x):
            QKV = np.concatenate([x @ p['Wq'] + p['bq'],
                                  x @ p['Wk'] + p['bk'],
                                  x @ p['Wv'] + p['bv']], axis=-1)  # (N+1, 3*heads*dims)
            QKV = QKV.T.reshape(3 * n_heads, head_dims, -1)  # (3*heads, dims, N+1)
            QKV = np.transpose(QKV, [0, 2, 1])  # (3*heads, N+1, dims)
            return np.split(QKV, 3, axis=0)  # list of (heads, N+1, dims)

        Q, K, V = extract_qkv(x)

        # NOTE - get weight matrix
        logits = np.matmul(Q, np.transpose(K, [0, 2, 1])) * (n_heads ** 0.5)
        if causal:
            logits = np.where(np.tril(np.ones((n_patches, n_patches))) > 0, logits, -np.inf)
        W = softmax(logits, axis=-1)  # (heads, N+1, N+1)

        out = np.matmul(W, V)  # (heads, N+1, dims)
        out = np.transpose(out, [1, 0, 2]).reshape(n_patches, -1)  # (N+1, heads*dims)

        # projection to input embedding dimension
        return out @ p['Wo'] + p['bo']

    return multi_head_attention(x, p, heads, causal=causal)
