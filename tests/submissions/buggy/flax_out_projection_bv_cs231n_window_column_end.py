"""Blind round 16 (b16_12, issue 38): self_attention ported from flax's
MultiHeadDotProductAttention, conv_patch_embed from cs231n's conv_forward_naive.

Mistakes:
1. The output projection adds p["bv"] instead of p["bo"].
2. conv_patch_embed slices the window's columns `j * stride : j + k` (for j * stride + k): an
   empty or short window, and a crash, when stride > 1.

Grader: at blind time, the output bias is named (bv read where bo belongs); the column slice got
only a traceback and a generic "the traceback says where" observation. Now named on
kernel-stride's call checks (windows.end_at_index: each window's columns end at `j + k` though
they start at `j * stride`; the first window cut short raises np.tensordot's own error, as the
reference's contraction does on it).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:parameter:self_attention:bo-as-bv',
          'no-causal-mask': 'op:parameter:self_attention:bo-as-bv',
          'kernel-stride': 'op:window_end:conv_patch_embed:columns-end-at-index'}


def conv_patch_embed(image, K, b, stride):
    """cs231n conv_forward_naive, channels last, no padding."""
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    H_out = 1 + (H - k) // stride
    W_out = 1 + (W - k) // stride
    out = np.zeros((H_out, W_out, K.shape[-1]))
    for i in range(H_out):
        for j in range(W_out):
            window = image[i * stride:i * stride + k, j * stride:j + k, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out


def self_attention(x, p, heads, causal=False):
    """flax MultiHeadDotProductAttention: DenseGeneral q/k/v, dot_product_attention, DenseGeneral out."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    query = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h)
    key = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h)
    value = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h)
    query = query / np.sqrt(d_h)
    logits = np.einsum("qhd,khd->hqk", query, key)
    if causal:
        logits = np.where(np.tril(np.ones((T, T), dtype=bool)), logits, np.finfo(logits.dtype).min)
    weights = softmax(logits, axis=-1)
    out = np.einsum("hqk,khd->qhd", weights, value).reshape(T, d)
    return out @ p["Wo"] + p["bv"]
