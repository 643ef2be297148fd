"""Blind round 22 (b22_03, issue 38): self_attention and conv_patch_embed ported from CompVis
latent diffusion (ldm/modules/attention.py's CrossAttention with `exists` / `default` and
einops' 'b n (h d)'; ldm/modules/diffusionmodules/model.py's Downsample, which pads (0, 1, 0, 1)
before its strided conv). The student's top-level helpers `exists` and `default`
(self_attention) and `_img` (conv_patch_embed) are nested in the functions that use them here:
the builder replaces only the solution's own definitions.

Mistakes:
1. self_attention writes 'b n (h d)' as `reshape(n, d_h, h)`: each head takes interleaved
   columns (several heads only); the merge uses the same layout.
2. conv_patch_embed pads one zero row at the bottom and one zero column at the right before every
   strided conv (Downsample's asymmetric pad): the output gains a row or column exactly when
   (H - k) % stride == stride - 1 (or the same for W), from windows over the padding.

Grader: at blind time and now (the same commit), the heads named (attention_heads_interleaved)
and observed on no-causal-mask ("right with one head", "only in 1 of 5 rows (row 0)"); the
padding not: both failing kernel-stride checks have no hint line (only the shapes, (2, 3, 4)
expected against (3, 3, 4)). vit-checkpoint observes the broken functions. Not every mistake
named, so in unnamed/. Since the same session's next commit the padding is named too
(windows.padding, one row and one column before a strided convolution): wholly named, moved to
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_interleaved',
          'kernel-stride': 'op:padding:conv_patch_embed:pad-one-end'}


def self_attention(x, p, heads, causal=False, context=None):
    def exists(val):
        return val is not None

    def default(val, d):
        return val if exists(val) else d

    h = heads
    n, inner_dim = x.shape
    if inner_dim % h:
        raise ValueError("inner_dim must be divisible by heads")
    dim_head = inner_dim // h
    scale = dim_head ** -0.5
    context = default(context, x)
    q = x @ p["Wq"] + p["bq"]
    k = context @ p["Wk"] + p["bk"]
    v = context @ p["Wv"] + p["bv"]
    # q, k, v = map(lambda t: rearrange(t, 'b n (h d) -> (b h) n d', h=h), (q, k, v))
    q, k, v = map(lambda t: t.reshape(n, dim_head, h).transpose(2, 0, 1), (q, k, v))
    sim = np.einsum("bid,bjd->bij", q, k) * scale
    if causal:
        mask = np.tril(np.ones((n, n), dtype=bool))
        max_neg_value = -np.finfo(sim.dtype).max
        sim = np.where(mask[None], sim, max_neg_value)
    attn = softmax(sim, axis=-1)
    out = np.einsum("bij,bjd->bid", attn, v)
    # rearrange(out, '(b h) n d -> b n (h d)', h=h)
    out = out.transpose(1, 2, 0).reshape(n, inner_dim)
    return out @ p["Wo"] + p["bo"]


def conv_patch_embed(image, K, b, stride):
    def _img(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[:, :, None]
        elif image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    x = _img(image)
    k = K.shape[0]
    h, w, c = x.shape
    if k > h or k > w:
        raise ValueError("kernel exceeds the image")
    if stride > 1:
        # Downsample: no asymmetric padding in torch conv, must do it ourselves
        x = np.pad(x, ((0, 1), (0, 1), (0, 0)), mode="constant", constant_values=0)
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    win = win.transpose(0, 1, 3, 4, 2)
    return np.tensordot(win, K, axes=([2, 3, 4], [0, 1, 2])) + b
