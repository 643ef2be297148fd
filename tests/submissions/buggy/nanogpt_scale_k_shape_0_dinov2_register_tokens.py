"""Blind round 15 (b15_14, issue 38): attention after nanoGPT's CausalSelfAttention (the scale
1.0 / math.sqrt(k.size(-1)) ported as k.shape[0]), the token count from DINOv2 with registers
(num_register_tokens = 4).

Mistakes:
1. self_attention scales by 1/sqrt(k.shape[0]): k is (heads, T, d_h), so it divides by
   sqrt(heads) (not at all with one head) instead of sqrt(d_h).
2. num_tokens adds 4 register tokens: N + 5 with [CLS], N + 4 without, instead of N + 1 and N.

Grader: at blind time the scale was named "`q.shape[-1]` reads index 0 instead of -1:
`q.shape[0]`" (the code reads k.shape[0], of the same shape; the diagnosis was right); now in
the lecture's sizes, "the scores are divided by sqrt(heads) (at your line `att = ...`), the
square root of the number of heads" (error_model/scales.py: a formula is said over an index
read that gives the same values). The registers were observed ("the expected count plus 4 on
every case"); now they are named too, by the error model's `registers` (counts.py): "the count
adds 4 register tokens ... (DINOv2 with registers' `num_register_tokens = 4`)".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:registers:num_tokens:plus-4-registers',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(heads)',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(heads)'}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length: patches, [CLS] and the register tokens (DINOv2, num_register_tokens=4)."""
    num_register_tokens = 4
    return num_patches(H, W, P) + (1 if cls_token else 0) + num_register_tokens


def self_attention(x, p, heads, causal=False):
    """nanoGPT CausalSelfAttention in numpy (separate q, k, v; causal optional)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    hs = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)  # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[0]))
    if causal:
        bias = np.tril(np.ones((T, T)))
        att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = att @ v
    y = y.transpose(1, 0, 2).reshape(T, d)
    return y @ p["Wo"] + p["bo"]
