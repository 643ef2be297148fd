"""Blind round 79 (b79_06, issue 38): num_patches, layer_norm and self_attention ported from
fanfanfeng/llm_relative `llm_base/attention/MultiHeadAttention.py` and
`llm_base/layer_norm/normal_layernorm.py`.

Mistakes:
1. num_patches (line 11 of the file as delivered): `(H / P) * (W / P)`, a float (196.0); the
   value is right, the type is not (the API's count is an integer).
2. layer_norm (lines 86-87): the source's `(x - mean) / (std + eps)`, eps outside the square
   root: tiny on ordinary rows, clear with eps=0.5 or on low-variance rows.
3. self_attention (line 129): the heads merged by `output.reshape(n_q, n_head * d_v)` straight
   from (heads, T, d_h), without moving the head axis back (the source permutes first). Right
   with one head only.
The delivered file's top-level helper `scaled_dot_product_attention` is nested in
self_attention here.

Grader: at blind time (50c6c808) and now, 87/110. Mistake 1 named on patch-count ("In
`num_patches`, the number is right but it is a float (at your line `return (H / P) * (W /
P)`)"), mistake 2 on layer-norm ("eps goes inside the square root: (x - mean) / sqrt(var + eps),
not / (std + eps)"), mistake 3 on multi-head-attention and no-causal-mask ("In `self_attention`,
the heads' outputs are merged by a reshape without moving the head axis back first").
why-positions loses 1 point with its checklist ("Your self_attention depends on the order of its
rows"), true, from mistake 3. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'layer-norm': 'layer_norm_eps_outside',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant'}


def num_patches(H, W, P):
    """
    N = HW / P^2
    """
    if H % P != 0 or W % P != 0:
        raise ValueError("H and W must be divisible by P")
    return (H / P) * (W / P)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    normalized_x = (x - mean) / (std + eps)
    return gamma * normalized_x + beta


def self_attention(x, p, heads, causal=False):
    """
    Multi-Head Attention
    """
    def scaled_dot_product_attention(q, k, v, scale, mask=None):
        u = np.matmul(q, k.transpose(0, 2, 1))   # 1. Matmul
        u = u / scale                            # 2. Scale
        if mask is not None:
            u = np.where(mask, -np.inf, u)       # 3. Mask
        attn = softmax(u, axis=-1)               # 4. Softmax
        output = np.matmul(attn, v)              # 5. Output
        return attn, output

    n_q, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by n_head")
    n_head = heads
    d_k = d_v = d_model // n_head

    # 1 single head -> multi head
    q = np.matmul(x, p["Wq"]) + p["bq"]
    k = np.matmul(x, p["Wk"]) + p["bk"]
    v = np.matmul(x, p["Wv"]) + p["bv"]

    q = q.reshape(n_q, n_head, d_k).transpose(1, 0, 2)
    k = k.reshape(n_q, n_head, d_k).transpose(1, 0, 2)
    v = v.reshape(n_q, n_head, d_v).transpose(1, 0, 2)

    mask = None
    if causal:
        mask = np.triu(np.ones((n_q, n_q), dtype=bool), k=1)
        mask = np.repeat(mask[np.newaxis], n_head, axis=0)

    # 2 treat as single-head attention
    attn, output = scaled_dot_product_attention(q, k, v, scale=np.power(d_k, 0.5), mask=mask)

    # 3 concat
    output = output.reshape(n_q, n_head * d_v)

    # 4 affine transform for the final output
    return np.matmul(output, p["Wo"]) + p["bo"]
