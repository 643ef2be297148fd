"""Blind round 61 (b61_15, issue 38): conv_patch_embed and self_attention ported from
01pooja10/ViT_pytorch `src/embedding.py` (Embed: `nn.Conv2d(channels, emb_dim, ...)`) and
`src/attn.py` (Attention: kqv names, `reshape(tokens, 3, nheads, headdim)`). The student's
top-level `_chw` is nested in conv_patch_embed here: the builder replaces only the solution's
own definitions.

Mistakes:
23. conv_patch_embed (line 56 of the file as delivered): the output is preallocated with
    `dtype=x.dtype` and the image is not cast to float, so a uint8 image gives wrapped,
    truncated uint8 outputs. Wrong only on integer (uint8) images.
24. self_attention (line 103): the source's `wt.transpose(2, 1)` dropped before flattening:
    (heads, T, d_h) reshaped straight to (T, d) mixes heads and tokens. Wrong only with
    heads > 1.

Grader: at blind time (90d6c97e) and now, 93/110, both named. Mistake 23 on kernel-stride's first
check ("In `conv_patch_embed`, the result takes `image`'s dtype (as a buffer made with
`np.zeros(..., dtype=image.dtype)` ...) ..."). Mistake 24 on multi-head-attention's and
no-causal-mask's checks ("In `self_attention`, the heads' outputs are merged by a reshape without
moving the head axis back first ..."); why-positions' property gives its checklist
(attention_not_equivariant); vit-checkpoint observes self_attention. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def conv_patch_embed(image, K, b, stride):
    """self.project = nn.Conv2d(channels, emb_dim, kernel_size=patch_size, stride=patch_size)"""
    def _chw(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _chw(image)
    ks, _, chn, emb = K.shape
    H, W, _ = x.shape
    if ks > H or ks > W:
        raise ValueError("kernel_size larger than the image")
    oh = (H - ks) // stride + 1
    ow = (W - ks) // stride + 1
    out = np.zeros((oh, ow, emb), dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            win = x[i * stride:i * stride + ks, j * stride:j * stride + ks, :]
            out[i, j] = np.einsum("abc,abce->e", win, K) + b
    return out


def self_attention(x, p, heads, causal=False):
    tokens, dim = x.shape
    nheads = heads
    if dim % nheads:
        raise ValueError("dim must be divisible by nheads")
    headdim = dim // nheads
    scaler = headdim ** -0.5
    kqv = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=-1)
    kqv = kqv.reshape(tokens, 3, nheads, headdim)
    kqv = kqv.transpose(1, 2, 0, 3)
    q, k, v = kqv[0], kqv[1], kqv[2]
    dp = (q @ k.transpose(0, 2, 1)) * scaler
    if causal:
        dp = np.where(np.tril(np.ones((tokens, tokens))).astype(bool), dp, -np.inf)
    attn = softmax(dp, axis=-1)
    wt = attn @ v
    wt = wt.reshape(tokens, -1)     # (patches+1, dim)
    return wt @ p["Wo"] + p["bo"]
