"""Lab 4 submission.

Mistakes (2):
- self_attention, with causal=True, keeps the upper triangle (np.triu): each token sees
  itself and LATER tokens, the mask is the wrong way round. Default causal=False is right.
- conv_patch_embed steps by the kernel size k instead of the stride argument (right only
  when stride == k).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_mask_transposed',
          'kernel-stride': 'op:stride_window:conv_patch_embed:windows-stride-as-window'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Ho, Wo = (H - k) // k + 1, (W - k) // k + 1
    out = np.empty((Ho, Wo, K.shape[-1]))
    for i in range(Ho):
        for j in range(Wo):
            patch = image[i * k:i * k + k, j * k:j * k + k, :]
            out[i, j] = np.tensordot(patch, K, axes=3) + b
    return out


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        keep = np.triu(np.ones((T, T), dtype=bool))
        scores = np.where(keep, scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
