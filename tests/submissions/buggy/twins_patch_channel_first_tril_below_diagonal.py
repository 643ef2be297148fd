"""Blind round 22 (b22_09, issue 38): patchify and self_attention ported from
Meituan-AutoML/Twins (gvt.py: grouped windows reshaped and swapped, a separate kv projection
reshaped to (N, 2, heads, d_h)). The student's top-level helper `_img` is nested in patchify
here: the builder replaces only the solution's own definitions.

Mistakes:
1. patchify flattens each patch channel-first, (c, p1, p2): wrong with more than one channel.
2. self_attention (causal=True only): the mask is `tril(ones, k=-1)`, which hides the diagonal:
   a token cannot see itself and the first row sees nothing.

Grader: at blind time and now (the same commit), both named: the channel-first flatten, and the
diagonal hidden (attention_causal_diagonal); vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first', 'no-causal-mask': 'attention_causal_diagonal'}


def patchify(image, P):
    def _img(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    x = _img(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    h_group, w_group = H // P, W // P
    x = x.reshape(1, h_group, P, w_group, P, C).swapaxes(2, 3)   # B, hg, wg, ws, ws, C
    x = x.transpose(0, 1, 2, 5, 3, 4)                           # B, hg, wg, C, ws, ws
    return x.reshape(h_group * w_group, C * P * P)


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError(f"dim {C} should be divided by num_heads {heads}")
    head_dim = C // heads
    scale = head_dim ** -0.5
    q = (x @ p["Wq"] + p["bq"]).reshape(N, heads, head_dim).transpose(1, 0, 2)
    kv = np.concatenate([x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=-1)
    kv = kv.reshape(N, 2, heads, head_dim).transpose(1, 2, 0, 3)
    k, v = kv[0], kv[1]
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        mask = np.tril(np.ones((N, N)), k=-1)
        attn = attn + np.where(mask == 1, 0.0, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]
