"""Blind round 70 (b70_03, issue 38): layer_norm and self_attention ported from
priyangkarghosh/tllm `src/model/attention.py` (nanoGPT's CausalSelfAttention: a fused c_attn
split with `np.split`, a tril mask).

Mistakes:
1. self_attention (line 98 of the file as delivered): scale `1 / math.sqrt(C)`, the full width
   (the source names the head size `H` and the width `C`), instead of 1/sqrt(d_h). Right for one
   head only.
2. layer_norm (lines 77-78): mean and var over `axis=1` instead of the last axis. Right for 2-D
   (T, d) input; wrong for a batched 3-D input, AxisError for a 1-D one.

Grader: at blind time (3f040026; 88/110 in a venv without scipy, which the file imports for its
`gelu`, 94/110 with it, as the test environment has) and now, 94/110. Mistake 1 named on
multi-head-attention ("You scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h)") and
no-causal-mask; mistake 2 named on layer-norm ("`np.mean(x, axis=-1, keepdims=True)` taken over
axis 1, ... instead of over axis -1", and the same of `np.var`). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    H = C // heads

    # project to q, k, v
    c_attn_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    c_attn_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ c_attn_w + c_attn_b
    q, k, v = np.split(qkv, 3, axis=1)
    q = q.reshape(T, heads, H).transpose(1, 0, 2)
    k = k.reshape(T, heads, H).transpose(1, 0, 2)
    v = v.reshape(T, heads, H).transpose(1, 0, 2)

    # scaled dot-product attention
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(C))
    if causal:
        bias = np.tril(np.ones((T, T)))
        att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)

    y = att @ v  # (n_head, T, H)
    y = y.transpose(1, 0, 2).reshape(T, C)
    return y @ p["Wo"] + p["bo"]
