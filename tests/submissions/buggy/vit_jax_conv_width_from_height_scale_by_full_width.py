"""Blind round 19 (b19_01, issue 38): conv_patch_embed and self_attention ported from
google-research/vision_transformer (vit_jax: the `embedding` nn.Conv with 'VALID' padding, flax's
dot_product_attention with DenseGeneral's (length, heads, head_dim) layout), jnp-style names.

Mistakes:
1. conv_patch_embed counts the output width from the height, `w_out = (h - k) // stride + 1`
   where `(w - k) // stride + 1` belongs: right only for square images (a wider image loses its
   last columns, a taller one raises ValueError from the window product).
2. self_attention scales the query by `np.sqrt(depth)` with `depth = query.shape[-1]` taken before
   the head split, i.e. sqrt(d) where sqrt(d_h) belongs (right with one head).
The student's `_to_hwc` helper (top-level in the file) is nested in conv_patch_embed here: the
builder replaces only the solution's own definitions.

Grader: at blind time and now, both named: the width counted from H (the random check as the
same slip "-clipped", windows that run off the edge) and the scale by sqrt(d) (as the generated
rewrite on no-causal-mask, as attention_scale_d on multi-head-attention). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def conv_patch_embed(image, K, b, stride):
    """vit_jax's VALID conv; the student's _to_hwc helper (top-level in the file) nested here."""
    def _to_hwc(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[..., None]
        if x.ndim != 3:
            raise ValueError(f"Expected (h, w) or (h, w, c), got {x.shape}")
        return x

    # nn.Conv(features=hidden_size, kernel_size=patches.size, strides=patches.size, padding='VALID')
    x = _to_hwc(image)
    h, w, c = x.shape
    k = K.shape[0]
    if k > h or k > w:
        raise ValueError(f"kernel {k} larger than image {h}x{w}")
    h_out = (h - k) // stride + 1
    w_out = (h - k) // stride + 1
    y = np.zeros((h_out, w_out, K.shape[-1]))
    for i in range(h_out):
        for j in range(w_out):
            window = x[i * stride:i * stride + k, j * stride:j * stride + k, :]
            y[i, j] = np.einsum('hwc,hwcd->d', window, K)
    return y + b


def self_attention(x, p, heads, causal=False):
    length, features = x.shape
    if features % heads != 0:
        raise ValueError("Memory dimension must be divisible by number of heads.")
    head_dim = features // heads
    query = x @ p["Wq"] + p["bq"]
    key = x @ p["Wk"] + p["bk"]
    value = x @ p["Wv"] + p["bv"]
    depth = query.shape[-1]
    query = query / np.sqrt(depth)
    # DenseGeneral(features=(num_heads, head_dim)) layout: [length, heads, head_dim]
    query = query.reshape(length, heads, head_dim)
    key = key.reshape(length, heads, head_dim)
    value = value.reshape(length, heads, head_dim)
    attn_weights = np.einsum('qhd,khd->hqk', query, key)
    if causal:
        causal_mask = np.tril(np.ones((length, length), dtype=bool))
        attn_weights = np.where(causal_mask[None], attn_weights, -np.inf)
    attn_weights = softmax(attn_weights, axis=-1)
    out = np.einsum('hqk,khd->qhd', attn_weights, value)
    out = out.reshape(length, features)
    return out @ p["Wo"] + p["bo"]
