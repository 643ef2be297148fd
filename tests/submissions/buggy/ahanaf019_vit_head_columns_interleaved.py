"""Blind round 74 (b74_14, issue 38): self_attention ported from
ahanaf019/Vision-Transformer-From-Scratch `models/modules/multihead_attention.py` (one Attention
module per head, the outputs concatenated).

Mistakes:
1. self_attention (line 109 of the file as delivered): head h takes the interleaved columns
   `np.arange(h, d_model, num_heads)`, h, h + heads, h + 2 * heads, ..., instead of the
   contiguous block h * d_h:(h + 1) * d_h. The same for heads = 1; wrong for heads > 1, with and
   without causal.
The delivered file's top-level helper attention is nested in self_attention here.

Grader: at blind time (997839b5) and now, 96/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("each of the `heads` groups takes every `heads`-th element (interleaved) instead
of `d // heads` consecutive ones"); vit-checkpoint observes self_attention. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved'}


def self_attention(x, p, heads, causal=False):
    def attention(Q, K, V, mask=None):
        d_k = Q.shape[-1]
        scores = Q @ K.T / math.sqrt(d_k)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        return softmax(scores, axis=-1) @ V

    T, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError(f'd_model={d_model} is not divisible by num_heads={heads}')
    num_heads = heads
    atten_dim = d_model // num_heads
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None

    Q = x @ p['Wq'] + p['bq']
    K = x @ p['Wk'] + p['bk']
    V = x @ p['Wv'] + p['bv']

    head_output = []
    for h in range(num_heads):
        idx = np.arange(h, d_model, num_heads)
        head_output.append(attention(Q[:, idx], K[:, idx], V[:, idx], mask))
    head_output = np.concatenate(head_output, axis=-1)
    return head_output @ p['Wo'] + p['bo']
