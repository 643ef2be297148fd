"""Blind round 4 (b4_15, issue 38), equinox / jax style, with two mistakes: conv_patch_embed
flattens sliding_window_view's (C, k, k) windows as they come and contracts them with K's
(k, k, C) axes, so each window is read in (c, p1, p2) order against K's (p1, p2, c) (right for
one channel, wrong for RGB: named since contractions.flattened_apart); self_attention drops the q, k, v biases (lucidrains'
to_qkv bias=False; bo kept): leaving out bk changes nothing (a constant per query), bq and bv
are named. linear_patch_embed is built on the student's own convolution (kernel P, stride P),
as the lecture allows: it is right, and graded around the broken convolution it keeps its points.
Since round 36 (issue 38) the attention's biases are named as one slip: "q, k and v are
projected without their biases" (op:qkv_bias_free), where a pair named bq's and bv's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'}
CORRECT = ('linear_patch_embed',)  # calls the student's conv rightly


def linear_patch_embed(image, W_e, b_e, P):
    """PatchEmbed as a conv with kernel P and stride P (Practice 7), flattened to (N, d)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    return conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P).reshape(-1, d)


def conv_patch_embed(image, K, b, stride):
    """eqx.nn.Conv2d(C, d, kernel_size=k, stride=stride, padding=0) on a channels-last image."""
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))[::stride, ::stride]
    Ho, Wo = windows.shape[:2]
    cols = windows.reshape(Ho, Wo, -1)                 # im2col: (H', W', C*k*k)
    return cols @ K.reshape(-1, K.shape[-1]) + b


def self_attention(x, p, heads, causal=False):
    """Attention with to_qkv (bias=False) and to_out (with bias)."""
    n, d = x.shape
    if d % heads:
        raise ValueError("heads must divide dim")
    dh = d // heads
    qkv = np.concatenate([x @ p["Wq"], x @ p["Wk"], x @ p["Wv"]], axis=-1)
    q, k, v = np.split(qkv, 3, axis=-1)
    q, k, v = (t.reshape(n, heads, dh).swapaxes(0, 1) for t in (q, k, v))
    sim = np.einsum('hid,hjd->hij', q, k) * dh ** -0.5
    if causal:
        sim = np.where(np.arange(n)[None, :] > np.arange(n)[:, None], -np.finfo(sim.dtype).max, sim)
    attn = softmax(sim, axis=-1)
    out = np.einsum('hij,hjd->hid', attn, v).swapaxes(0, 1).reshape(n, d)
    return out @ p["Wo"] + p["bo"]
