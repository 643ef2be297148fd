"""Blind round 61 (b61_02, issue 38): conv_patch_embed and self_attention ported from
tahmid0007/VisionTransformer `Google_ViT.py` (ImageTransformer's `nn.Conv2d(3, dim, ...)` as a
channel loop; Attention with the fused qkv rearranged `'n (qkv h d) -> qkv h n d'` and the
source's `scale = dim ** -0.5`).

Mistakes:
3. conv_patch_embed (line 54 of the file as delivered): `for ch in range(3)`, the source's three
   input channels hard-coded. Wrong only when C != 3: IndexError on 2-D, 1- and 2-channel
   images, a fourth channel ignored.
4. self_attention (line 92): `scale = dim ** -0.5`, the model width, where `d_h ** -0.5`
   belongs. Wrong only with heads > 1.

Grader: at blind time (90d6c97e) and now, 90/110. Mistake 4 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width ...") and no-causal-mask ("the scores are divided by sqrt(d),
the model width, instead of sqrt(d_h) ..."). Mistake 3 only observed on kernel-stride: its
checklist on two checks and, on the equivalence property, "Your `conv_patch_embed` failed on the
inputs this property gives it ... (the traceback says where)", the traceback showing
`img[..., ch]` raising IndexError on a 1-channel image. A hint would say the channel loop runs
over a fixed 3 channels, `range(3)`, not `image.shape[2]`. Being mended: not every mistake named,
so in unnamed/; EXPECT holds what must hold today: the points lost, no wrong cause, mistake 4
still named.
Named since, in the same session (error_model/rgb_only.py, a convolution looping over a
fixed 3 channels): moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:conv_channels_as_rgb:conv_patch_embed:windows-channels-as-3',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def conv_patch_embed(image, K, b, stride):
    """ImageTransformer.patch_conv, channels last."""
    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[..., None]
    k, dim = K.shape[0], K.shape[-1]
    H, W = img.shape[:2]
    if k > H or k > W:
        raise ValueError('kernel larger than the image')
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    x = np.zeros((Ho, Wo, dim))
    for ch in range(3):
        for i in range(Ho):
            for j in range(Wo):
                window = img[i * stride:i * stride + k, j * stride:j * stride + k, ch]
                x[i, j] += np.tensordot(window, K[:, :, ch, :], axes=([0, 1], [0, 1]))
    return x + b


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    h = heads
    if dim % h != 0:
        raise ValueError('dim must be divisible by heads')
    scale = dim ** -0.5
    qkv = np.concatenate([x @ p['Wq'] + p['bq'], x @ p['Wk'] + p['bk'], x @ p['Wv'] + p['bv']], axis=-1)
    # rearrange 'n (qkv h d) -> qkv h n d'
    q, k, v = qkv.reshape(n, 3, h, dim // h).transpose(1, 2, 0, 3)
    dots = np.einsum('hid,hjd->hij', q, k) * scale
    if causal:
        mask = np.tril(np.ones((n, n), dtype=bool))
        dots = np.where(mask[None], dots, -np.inf)
    attn = softmax(dots, axis=-1)
    out = np.einsum('hij,hjd->hid', attn, v)
    out = out.transpose(1, 0, 2).reshape(n, dim)  # 'h n d -> n (h d)'
    return out @ p['Wo'] + p['bo']
