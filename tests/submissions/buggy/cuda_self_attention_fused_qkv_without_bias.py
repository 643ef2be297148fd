"""Blind round 81 (b81_15, issue 38): self_attention ported from Fizzmy/cuda_self_attention
`multi_head_attention/multi_head_attention.py` (a fused QKV projection).

Mistakes:
1. self_attention (lines 89-90 of the file as delivered): `qkv = concatenate([Wq, Wk, Wv])`
   applied with no bias (the source's QKV_linear has bias=False): bq and bv dropped (bk alone
   would change nothing): wrong whenever bq or bv != 0, any number of heads.

Grader: at blind time (b5c841e9) and now, 95/110. Mistake 1 named on multi-head-attention and no-causal-mask ("q, k
and v are projected without their biases ... `p['bk']` alone would change nothing"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'}


def self_attention(x, p, heads, causal=False):
    tgt_len, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError("hidden_size must be divisible by head_num")
    head_num = heads
    output_size = hidden_size // head_num

    qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (hidden, 3*hidden)
    QKV = x @ qkv
    QKVT = QKV.reshape(tgt_len, 3, head_num, output_size).transpose(1, 2, 0, 3)
    Q, K, V = QKVT[0], QKVT[1], QKVT[2]

    softmax_input = Q @ K.transpose(0, 2, 1)
    softmax_input = softmax_input / np.power(output_size, 0.5)
    if causal:
        softmax_input = np.where(np.tril(np.ones((tgt_len, tgt_len))) > 0, softmax_input, -np.inf)
    softmax_output = softmax(softmax_input, axis=2)

    softmax_V = (softmax_output @ V).transpose(1, 0, 2).reshape(tgt_len, hidden_size)
    return softmax_V @ p["Wo"] + p["bo"]
